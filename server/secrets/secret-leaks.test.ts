// Secrets used for real, through the HTTP API: http.get against a loopback server (allowed by config) and
// mail.send logging in to the test SMTP server carry the value; the answer, the trace, the debug run, the log
// lines and the error messages do not (each is searched for it). Bad references are clear errors.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackListener, type LoopbackListener } from '../http-client/loopback-listener';
import { createLogger } from '../logging/logger';
import { startLoopbackSmtp, type LoopbackSmtp } from '../mail/loopback-smtp';
import { callCommand, codeOf } from '../testing/command-forms';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const TOKEN = 'tok-91c2e7a05b3d48f6';
const PASSWORD = 'smtp-pw-77e1b0c9';
const API_KEY = 'key-0d4c8a2f19e3';

let server: TestServer;
let listener: LoopbackListener;
let smtp: LoopbackSmtp;
let ann: string;
let ben: string;
const logLines: string[] = [];

beforeAll(async () => {
  [listener, smtp] = await Promise.all([
    startLoopbackListener('127.0.0.1'),
    startLoopbackSmtp({ auth: true }),
  ]);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  server = await startTestServer({
    env: {
      PIPEWORK_HTTP_ALLOW_HOSTS: 'localhost, 127.0.0.1',
      PIPEWORK_SMTP_URL: smtp.url,
      PIPEWORK_MAIL_FROM: 'robot@pipework.test',
      // Every successful run keeps its step trace, and the history is written at once, so both are searched.
      PIPEWORK_RUNS_TRACE_SAMPLE: '1',
      PIPEWORK_RUNS_FLUSH_MILLIS: '50',
    },
    logger: createLogger('debug', sink),
  });
  for (const name of ['ann', 'ben'])
    await server.services.iam.createUser({
      username: name,
      password: `${name}-pw`,
      roles: ['ROLE_DEVELOPER'],
    });
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
  for (const [name, format, secret] of [
    ['crm', 'bearer', `Bearer: ${TOKEN}`],
    ['mailer', 'username-password', `robot:${PASSWORD}`],
    ['api-key', 'header', `X-Api-Key: ${API_KEY}`],
    ['note', 'secret-text', 'just-some-text-1234'],
  ]) {
    const put = await callCommand('GET', server.url, 'secret.put', { name, format, secret }, ann);
    expect(put.status).toBe(200);
    expect(put.text).not.toContain(secret);
  }
});
afterAll(async () => {
  await Promise.all([server.close(), listener.close(), smtp.close()]);
});

const pipeline = (auth: string, yaml: string, query = '') =>
  http(server.url, `/api/v3/pipeline${query}`, { auth, type: 'application/yaml', body: yaml });

function expectNowhere(text: string, ...values: string[]): void {
  for (const value of values) {
    expect(text).not.toContain(value);
    expect(text).not.toContain(Buffer.from(value).toString('base64'));
  }
}

describe('a secret used by http.get', () => {
  it('is sent, and masked in the answer, the trace and the log lines', async () => {
    const yaml = `pipeline:
  - http.get:
      url: ${listener.url}/echo
      secret: crm
  - log:
      message: "the upstream saw #{body.headers.authorization}"
`;
    const seen = listener.received.length;
    const response = await pipeline(ann, yaml, '?trace=true');
    expect(response.status).toBe(200);
    expect(listener.received[seen]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(response.json.body.headers.authorization).toBe('Bearer *****');
    expectNowhere(response.text, TOKEN);
    expect(response.json.trace.length).toBe(2);
    const logs = logLines.join('');
    expect(logs).toContain('the upstream saw Bearer *****');
    expectNowhere(logs, TOKEN);
  });

  it('is masked in an error message and in a debug run', async () => {
    const failing = await pipeline(
      ann,
      `pipeline:\n  - http.get:\n      url: ${listener.url}/echo\n      credentials: crm\n  - error: "leaked #{body.headers.authorization}"\n`,
    );
    expect(failing.status).toBe(400);
    expect(failing.json.value.message).toContain('leaked Bearer *****');
    expectNowhere(failing.text, TOKEN);
    const debug = await http(server.url, '/api/v3/pipeline/debug', {
      auth: ann,
      type: 'application/json',
      body: JSON.stringify({
        form: 'yaml',
        pipeline: `pipeline:\n  - http.get:\n      url: ${listener.url}/echo\n      secret: crm\n  - set.var:\n      key: seen\n      value: "#{body.headers.authorization}"\n`,
      }),
    });
    expect(debug.status).toBe(200);
    expectNowhere(debug.text, TOKEN);
    expectNowhere(logLines.join(''), TOKEN);
  });

  it('sends a header secret and Basic authentication, and drops a header secret on a redirect elsewhere', async () => {
    const seen = listener.received.length;
    const echo = await callCommand(
      'pipeline',
      server.url,
      'http.get',
      { url: `${listener.url}/echo`, secret: 'api-key' },
      ann,
    );
    expect(listener.received[seen]!['x-api-key']).toBe(API_KEY);
    expectNowhere(echo.text, API_KEY);
    await callCommand(
      'pipeline',
      server.url,
      'http.get',
      { url: `${listener.url}/echo`, secret: 'mailer' },
      ann,
    );
    expect(listener.received[seen + 1]!.authorization).toBe(
      `Basic ${Buffer.from(`robot:${PASSWORD}`).toString('base64')}`,
    );
    // 127.0.0.1 → localhost is another origin: the secret's header stays behind.
    const elsewhere = `http://localhost:${listener.port}/echo`;
    const redirected = await callCommand(
      'pipeline',
      server.url,
      'http.get',
      { url: `${listener.url}/redirect?to=${encodeURIComponent(elsewhere)}`, secret: 'api-key' },
      ann,
    );
    expect(redirected.status).toBe(200);
    expect(listener.received.at(-1)!['x-api-key']).toBeUndefined();
  });

  it('refuses what the caller may not use and secrets of the wrong format, clearly', async () => {
    const other = await callCommand(
      'pipeline',
      server.url,
      'http.get',
      { url: `${listener.url}/echo`, secret: 'crm' },
      ben,
    );
    expect(other.status).toBe(404);
    expect(codeOf(other)).toBe('NOT_FOUND');
    expect(other.json.value.message).toContain("No secret 'crm' you may use");
    const text = await callCommand(
      'pipeline',
      server.url,
      'http.get',
      { url: `${listener.url}/echo`, secret: 'note' },
      ann,
    );
    expect(codeOf(text)).toBe('PARAM_INVALID');
    const wrong = await callCommand(
      'pipeline',
      server.url,
      'secret.put',
      { name: 'broken', format: 'username-password', secret: 'no-colon-secret' },
      ann,
    );
    expect(codeOf(wrong)).toBe('PARAM_INVALID');
    expectNowhere(wrong.text, 'no-colon-secret');
    const listed = await callCommand('GET', server.url, 'secret.list', {}, ann);
    expect(listed.json.map((s: { name: string }) => s.name)).toEqual(['api-key', 'crm', 'mailer', 'note']);
    expectNowhere(listed.text, TOKEN, PASSWORD, API_KEY);
    expect((await callCommand('GET', server.url, 'secret.list', {}, ben)).json).toEqual([]);
    const one = await callCommand('GET', server.url, 'secret.get', { name: 'crm' }, ann);
    expect(one.json).toMatchObject({ name: 'crm', format: 'bearer', scope: 'user', createdBy: 'ann' });
    expect(codeOf(await callCommand('GET', server.url, 'secret.get', { name: 'crm' }, ben))).toBe(
      'NOT_FOUND',
    );
    // Only an admin rotates the master key.
    expect(codeOf(await callCommand('pipeline', server.url, 'secret.key.rotate', {}, ann))).toBe('FORBIDDEN');
  });
});

describe('a secret used by mail.send', () => {
  it('logs in to the SMTP server; the answer and the log lines do not hold the password', async () => {
    const seen = smtp.received.length;
    const sent = await callCommand(
      'pipeline',
      server.url,
      'mail.send',
      { to: 'rita@example.com', subject: 'With a login', message: 'hi', secret: 'mailer' },
      ann,
    );
    expect(sent.status).toBe(200);
    await smtp.next(seen);
    expect(smtp.logins.at(-1)).toEqual({ username: 'robot', password: PASSWORD });
    expectNowhere(sent.text, PASSWORD);
    expectNowhere(logLines.join(''), PASSWORD);
    const bearer = await callCommand(
      'pipeline',
      server.url,
      'mail.send',
      { to: 'rita@example.com', secret: 'crm' },
      ann,
    );
    expect(codeOf(bearer)).toBe('PARAM_INVALID');
  });
});

describe('the run history and the metrics', () => {
  it('hold no secret value of the runs above', async () => {
    const marker = `pipeline:\n  - http.get:\n      url: ${listener.url}/echo\n      secret: crm\n  - error: "again #{body.headers.authorization}"\n`;
    expect((await pipeline(ann, marker)).status).toBe(400);
    let runs: { id: string; status: string }[] = [];
    for (let tries = 0; tries < 100; tries++) {
      const listed = await http(server.url, '/api/v3/runs?limit=100', { auth: ann });
      expect(listed.status).toBe(200);
      runs = listed.json.runs ?? listed.json;
      if (runs.some((run) => run.status === 'failed') && runs.length >= 4) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const details = await Promise.all(
      runs.map((run) => http(server.url, `/api/v3/runs/${run.id}`, { auth: ann })),
    );
    const recorded = details.map((detail) => detail.text).join('\n');
    // The failed run kept its error and the message of its failed step: both masked.
    expect(recorded).toContain('again Bearer *****');
    expectNowhere(recorded, TOKEN, PASSWORD, API_KEY);
    const metrics = await http(server.url, '/metrics', { auth: server.adminAuth });
    expect(metrics.status).toBe(200);
    expectNowhere(metrics.text, TOKEN, PASSWORD, API_KEY);
  });
});
