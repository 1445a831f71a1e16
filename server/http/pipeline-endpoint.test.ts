import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const logLines: Record<string, unknown>[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n'))
      if (line) logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ logger: createLogger('info', capture) });
});
afterAll(() => server.close());

const post = (body: string, type: string, query = '') =>
  http(server.url, `/api/v3/pipeline${query}`, { body, type, auth: server.adminAuth });

const SPEC_EXAMPLE = {
  yaml: 'pipeline:\n  - log:\n      message: "BODY: #{body.text}"\nbody:\n  text: hello\n',
  json: JSON.stringify({ pipeline: [{ log: { message: 'BODY: #{body.text}' } }], body: { text: 'hello' } }),
  uri: 'set.body?value=%7B%22text%22%3A%22hello%22%7D&format=json|log?message=BODY:%20%23%7Bbody.text%7D',
};

describe('POST /api/v3/pipeline', () => {
  it.each([
    ['YAML', SPEC_EXAMPLE.yaml, 'application/yaml'],
    ['JSON', SPEC_EXAMPLE.json, 'application/json'],
    ['a URI', SPEC_EXAMPLE.uri, 'text/plain'],
  ])('runs the spec example sent as %s: logs BODY: hello', async (_form, body, type) => {
    const before = logLines.length;
    const response = await post(body, type);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ text: 'hello' });
    const logged = logLines.slice(before).filter((l) => l.msg === 'BODY: hello');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ command: 'log', user: 'admin' });
  });

  it('takes YAML when no content type is given', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      body: 'pipeline:\n  - set.body: plain\n',
      auth: server.adminAuth,
      headers: { 'content-type': '' },
    });
    expect(response.status).toBe(200);
    expect(response.text).toBe('plain');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it.each([
    ['an object', '{a: 1}', 200, 'application/json; charset=utf-8'],
    ['a number', '42', 200, 'application/json; charset=utf-8'],
    ['a boolean', 'true', 200, 'application/json; charset=utf-8'],
    ['a string', 'hi', 200, 'text/plain; charset=utf-8'],
    ['null', 'null', 200, null],
  ])('answers %s with status %s', async (_kind, value, status, type) => {
    const response = await post(
      `pipeline:\n  - set.body:\n      value: ${value}\n      format: auto\n`,
      'application/yaml',
    );
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('returns the trace with ?trace=true', async () => {
    const response = await post(SPEC_EXAMPLE.yaml, 'application/yaml', '?trace=true');
    expect(response.status).toBe(200);
    expect(response.json.body).toEqual({ text: 'hello' });
    expect(response.json.trace[0]).toMatchObject({
      command: 'log',
      params: { message: 'BODY: hello' },
      output: { text: 'hello' },
      logs: [{ level: 'INFO', message: 'BODY: hello' }],
    });
  });

  it('carries the trace so far in an error in trace mode', async () => {
    const response = await post(
      'pipeline:\n  - log: one\n  - error: two\n',
      'application/yaml',
      '?trace=true',
    );
    expect(response.status).toBe(400);
    expect(response.json.value.code).toBe('ASSERTION_FAILED');
    expect(response.json.value.trace).toHaveLength(2);
  });

  it('shows request parameters to expressions but never the credentials', async () => {
    const response = await post(
      'pipeline:\n  - set.body: "#{request.params.who + (request.headers.authorization == null)}"\n',
      'application/yaml',
      '?who=me',
    );
    expect(response.text).toBe('metrue');
  });
});
