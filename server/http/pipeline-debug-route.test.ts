import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const debug = (request: unknown, auth = server.adminAuth) =>
  http(server.url, '/api/v3/pipeline/debug', {
    body: JSON.stringify(request),
    type: 'application/json',
    auth,
  });

const PIPELINE = `vars:
  greeting: Hello
body:
  name: world
pipeline:
  - set.var:
      key: message
      value: "#{vars.greeting}, #{body.name}!"
  - set.body:
      value:
        text: "#{vars.message}"
  - log:
      message: "#{body.text}"
`;

describe('POST /api/v3/pipeline/debug', () => {
  it('records the message each step saw, and the final one', async () => {
    const response = await debug({ pipeline: PIPELINE, form: 'yaml' });
    expect(response.status).toBe(200);
    const { trace, final, body } = response.json;
    expect(body).toEqual({ text: 'Hello, world!' });
    expect(trace.map((s: { command: string }) => s.command)).toEqual(['set.var', 'set.body', 'log']);
    expect(trace[0].message).toEqual({ body: { name: 'world' }, vars: { greeting: 'Hello' }, headers: {} });
    expect(trace[1].message.vars).toEqual({ greeting: 'Hello', message: 'Hello, world!' });
    expect(trace[2].message.body).toEqual({ text: 'Hello, world!' });
    expect(trace[2].logs).toEqual([{ level: 'INFO', message: 'Hello, world!' }]);
    expect(trace.every((s: { exact: boolean }) => s.exact)).toBe(true);
    expect(final).toEqual({
      message: {
        body: { text: 'Hello, world!' },
        vars: { greeting: 'Hello', message: 'Hello, world!' },
        headers: {},
      },
      exact: true,
    });
  });

  it('runs from a chosen step with a recorded message, without running the steps before it', async () => {
    const seed = {
      body: { name: 'seeded' },
      vars: { greeting: 'Hi', message: '#{not evaluated}' },
      headers: {},
    };
    const response = await debug({ pipeline: PIPELINE, form: 'yaml', fromStep: 1, seed });
    expect(response.status).toBe(200);
    const { trace, body, stepsExecuted, fromStep } = response.json;
    expect(fromStep).toBe(1);
    expect(stepsExecuted).toBe(2);
    expect(trace.map((s: { index: number }) => s.index)).toEqual([1, 2]);
    // The seed's text is a value, not an expression: it is never evaluated again.
    expect(body).toEqual({ text: '#{not evaluated}' });
    expect(trace[0].message).toEqual(seed);
  });

  it('places errors of a run from a step at the line of the whole pipeline, and runs nothing', async () => {
    const pipeline =
      'pipeline:\n  - set.body: 1\n  - set.var:\n      key: a\n      value: 2\n  - log: "#{vars.a +}"\n';
    const seed = { body: 5, vars: {}, headers: {} };
    const response = await debug({ pipeline, form: 'yaml', fromStep: 1, seed });
    expect(response.status).toBe(400);
    expect(response.json.value).toMatchObject({ code: 'PEL_SYNTAX', commandIndex: 2, line: 6 });
    // Refused before its first step: no step ran, so there is no trace.
    expect(response.json.value.trace).toBeUndefined();
  });

  it('places a runtime error of a run from a step at the line of the whole pipeline, with the messages so far', async () => {
    const pipeline =
      'pipeline:\n  - set.body: 1\n  - set.var:\n      key: a\n      value: 2\n  - error: "stop at #{vars.a}"\n';
    const seed = { body: 5, vars: {}, headers: {} };
    const response = await debug({ pipeline, form: 'yaml', fromStep: 1, seed });
    expect(response.status).toBe(400);
    expect(response.json.value).toMatchObject({ code: 'ASSERTION_FAILED', commandIndex: 2, line: 6 });
    const trace = response.json.value.trace;
    expect(trace[0]).toMatchObject({ index: 1, command: 'set.var', message: { body: 5, vars: {} } });
  });

  it('keeps messages aligned with their steps across retries', async () => {
    const pipeline =
      'pipeline:\n  - error:\n      message: busy\n      onError: "RETRY; times=2; wait=0; then=IGNORE"\n' +
      '  - set.var:\n      key: after\n      value: 1\n  - log: "#{vars.after}"\n';
    const response = await debug({ pipeline, form: 'yaml' });
    expect(response.status).toBe(200);
    const { trace } = response.json;
    expect(trace.map((s: { command: string }) => s.command)).toEqual(['error', 'set.var', 'log']);
    expect(trace[0].logs.filter((l: { message: string }) => l.message.includes('retrying'))).toHaveLength(2);
    expect(trace[1].message.vars).toEqual({});
    expect(trace[2].message.vars).toEqual({ after: 1 });
  });

  it('gives a final body of bytes as base64 with its type, and marks messages holding bytes as not exact', async () => {
    const pipeline =
      'pipeline:\n  - barcode.create:\n      format: QR_CODE\n      text: hello\n  - log: "#{vars.x}"\nvars:\n  x: 1\n';
    const response = await debug({ pipeline, form: 'yaml' });
    expect(response.status).toBe(200);
    const { body, bytes, trace } = response.json;
    expect(body).toMatchObject({ $binary: true, mimeType: 'image/png' });
    const png = Buffer.from(bytes, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.byteLength).toBe(body.size);
    expect(trace[1].exact).toBe(false);
    expect(trace[1].message.body).toMatchObject({ $binary: true, mimeType: 'image/png' });
  });

  it('refuses a start inside a block, a start past the end and a start without its message', async () => {
    const pipeline =
      'pipeline:\n  - foreach:\n      in: [1, 2]\n  - log: "#{vars.item}"\n  - foreach.end\n  - log: done\n';
    const inside = await debug({
      pipeline,
      form: 'yaml',
      fromStep: 1,
      seed: { body: null, vars: {}, headers: {} },
    });
    expect(inside.status).toBe(400);
    expect(inside.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'fromStep', line: 4 });
    const after = await debug({
      pipeline,
      form: 'yaml',
      fromStep: 3,
      seed: { body: 'x', vars: {}, headers: {} },
    });
    expect(after.status).toBe(200);
    expect(after.json.trace.map((s: { index: number }) => s.index)).toEqual([3]);
    const past = await debug({ pipeline, form: 'yaml', fromStep: 9, seed: { vars: {}, headers: {} } });
    expect(past.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'fromStep' });
    const noSeed = await debug({ pipeline, form: 'yaml', fromStep: 3 });
    expect(noSeed.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'seed' });
  });

  it('takes a hostile seed as plain data: no prototype is polluted', async () => {
    const request =
      '{"pipeline": "pipeline:\\n  - log: x\\n  - set.body: \\"#{vars.a}\\"\\n", "form": "yaml", "fromStep": 1,' +
      ' "seed": {"body": null, "vars": {"__proto__": {"polluted": true}, "a": "plain"}, "headers": {"__proto__": {"x": 1}}}}';
    const response = await http(server.url, '/api/v3/pipeline/debug', {
      body: request,
      type: 'application/json',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    expect(response.json.body).toBe('plain');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('still checks every step against the caller, and needs a caller', async () => {
    const anonymous = await http(server.url, '/api/v3/pipeline/debug', {
      body: JSON.stringify({ pipeline: PIPELINE }),
      type: 'application/json',
    });
    expect(anonymous.status).toBe(401);
    const bad = await debug({ pipeline: 42 });
    expect(bad.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'pipeline' });
    const notJson = await http(server.url, '/api/v3/pipeline/debug', {
      body: '{',
      type: 'application/json',
      auth: server.adminAuth,
    });
    expect(notJson.json.value.code).toBe('BAD_REQUEST');
  });
});
