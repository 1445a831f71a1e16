import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  // a real socket: some requests are raw bytes over node:net, which fetch cannot send
  server = await startTestServer({
    socket: true,
    env: { PIPEWORK_MAX_PIPELINE_STEPS: '50', PIPEWORK_MAX_PIPELINE_MILLIS: '3000' },
  });
});
afterAll(() => server.close());
// Whatever a test sent, the server must go on serving.
afterEach(async () => {
  expect((await http(server.url, '/healthz')).status).toBe(200);
});

const yaml = (body: string, query = '') =>
  http(server.url, `/api/v3/pipeline${query}`, { body, type: 'application/yaml', auth: server.adminAuth });

function expectError(response: Awaited<ReturnType<typeof http>>, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(response.json).toMatchObject({ status: 'error', statusCode: status, value: { code } });
  expect(typeof response.json.statusMessage).toBe('string');
  expect(response.json.value.traceId).toBe(response.headers.get('x-trace-id'));
  expect(response.text).not.toMatch(/at .*\.ts:\d+/);
}

describe('the error contract', () => {
  it('malformed YAML: PIPELINE_SYNTAX with the right line', async () => {
    const response = await yaml('pipeline:\n  - log:\n      message: "open\n  - log: x\n');
    expectError(response, 400, 'PIPELINE_SYNTAX');
    expect(response.json.value.line).toBeGreaterThanOrEqual(3);
  });

  it('duplicate keys: PIPELINE_SYNTAX at the duplicate', async () => {
    const response = await yaml('pipeline:\n  - log:\n      message: a\n      message: b\n');
    expectError(response, 400, 'PIPELINE_SYNTAX');
    expect(response.json.value.line).toBe(4);
  });

  it('a YAML alias bomb is refused', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const response = await yaml(`vars:\n${lines.map((l) => '  ' + l).join('\n')}\npipeline:\n  - log\n`);
    expectError(response, 400, 'PIPELINE_SYNTAX');
  });

  it.each([
    ['YAML', 'application/yaml', `pipeline:\n  - log\nbody: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`],
    ['JSON', 'application/json', `{"pipeline":["log"],"body":${'['.repeat(10_000)}${']'.repeat(10_000)}}`],
  ])('10,000 levels of nesting in %s: PIPELINE_SYNTAX', async (_form, type, body) => {
    const response = await http(server.url, '/api/v3/pipeline', { body, type, auth: server.adminAuth });
    expectError(response, 400, 'PIPELINE_SYNTAX');
  });

  it('10,000 levels of nesting in a JSON command body: BAD_REQUEST', async () => {
    const body = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const response = await http(server.url, '/api/v3/command/log', {
      body,
      type: 'application/json',
      auth: server.adminAuth,
    });
    expectError(response, 400, 'BAD_REQUEST');
  });

  it('malformed JSON in a command body: BAD_REQUEST with the position', async () => {
    const response = await http(server.url, '/api/v3/command/log', {
      body: '{"a":\n 1,}',
      type: 'application/json',
      auth: server.adminAuth,
    });
    expectError(response, 400, 'BAD_REQUEST');
    expect(response.json.value.line).toBe(2);
  });

  it('a 20 MB command body: PAYLOAD_TOO_LARGE', async () => {
    const body = new Uint8Array(20 * 1024 * 1024).fill(65);
    const response = await http(server.url, '/api/v3/command/log', {
      body,
      type: 'text/plain',
      auth: server.adminAuth,
    });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a 2 MB pipeline script: PAYLOAD_TOO_LARGE', async () => {
    const response = await yaml(`pipeline:\n  - log\nbody: "${'x'.repeat(2 * 1024 * 1024)}"\n`);
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('unknown command: COMMAND_NOT_FOUND, over HTTP and in a pipeline with its line', async () => {
    expectError(
      await http(server.url, '/api/v3/command/no.such', { auth: server.adminAuth }),
      404,
      'COMMAND_NOT_FOUND',
    );
    const response = await yaml('pipeline:\n  - log: a\n  - no.such\n');
    expectError(response, 404, 'COMMAND_NOT_FOUND');
    expect(response.json.value).toMatchObject({
      commandName: 'no.such',
      commandIndex: 1,
      line: 3,
      column: 5,
    });
  });

  it.each([
    ['a wrong type', '/api/v3/command/log?level=LOUD', 'level'],
    ['an unknown parameter', '/api/v3/command/log?mesage=x', 'mesage'],
    ['a missing parameter', '/api/v3/command/set.var?key=x', 'value'],
    ['a repeated parameter', '/api/v3/command/log?message=a&message=b', 'message'],
  ])('%s: PARAM_INVALID naming the parameter', async (_name, path, parameter) => {
    const response = await http(server.url, path, { auth: server.adminAuth });
    expectError(response, 400, 'PARAM_INVALID');
    expect(response.json.value.parameter).toBe(parameter);
    expect(response.json.value.message).toContain(parameter);
  });

  it('a wrong type in a pipeline: PARAM_INVALID with the line of the parameter', async () => {
    const response = await yaml('pipeline:\n  - log:\n      message: x\n      level: 7\n');
    expectError(response, 400, 'PARAM_INVALID');
    expect(response.json.value).toMatchObject({ parameter: 'level', line: 4 });
  });

  it('PEL_SYNTAX with the line and column in the pipeline', async () => {
    const response = await yaml('pipeline:\n  - log:\n      message: "#{body.a +}"\n');
    expectError(response, 400, 'PEL_SYNTAX');
    expect(response.json.value).toMatchObject({ commandName: 'log', commandIndex: 0, line: 3 });
    expect(response.json.value.column).toBeGreaterThan(16);
  });

  it('PEL_EVAL when an expression fails', async () => {
    expectError(await yaml('pipeline:\n  - set.body: "#{1 / 0}"\n'), 400, 'PEL_EVAL');
  });

  it('ASSERTION_FAILED from test', async () => {
    expectError(await yaml('pipeline:\n  - test: "#{1 > 2}"\n'), 400, 'ASSERTION_FAILED');
  });

  it('LIMIT_EXCEEDED past the step limit', async () => {
    const response = await yaml(
      'body: "#{null}"\npipeline:\n  - foreach: "#{{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30}}"\n  - log: a\n  - log: b\n  - foreach.end\n',
    );
    expectError(response, 422, 'LIMIT_EXCEEDED');
  });

  it('UNAUTHENTICATED without credentials, with WWW-Authenticate', async () => {
    const response = await http(server.url, '/api/v3/command/datetime');
    expectError(response, 401, 'UNAUTHENTICATED');
    expect(response.headers.get('www-authenticate')).toMatch(/Basic/);
  });

  it('UNAUTHENTICATED with a wrong password', async () => {
    const response = await http(server.url, '/api/v3/command/datetime', {
      auth: server.basicAuth('admin', 'wrong'),
    });
    expectError(response, 401, 'UNAUTHENTICATED');
  });

  it('UNSUPPORTED_MEDIA_TYPE for a pipeline of another type', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      body: 'x',
      type: 'image/png',
      auth: server.adminAuth,
    });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('BAD_REQUEST for a path that is not valid percent-encoding', async () => {
    const response = await http(server.url, '/api/v3/command/log%E0%A4%A', { auth: server.adminAuth });
    expectError(response, 400, 'BAD_REQUEST');
    expect(response.json.value.message).toContain('decode');
  });

  it('METHOD_NOT_ALLOWED for a known path with another method', async () => {
    const response = await http(server.url, '/api/v3/pipeline', { method: 'GET', auth: server.adminAuth });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('POST');
    const command = await http(server.url, '/api/v3/command/log', {
      method: 'DELETE',
      auth: server.adminAuth,
    });
    expectError(command, 405, 'METHOD_NOT_ALLOWED');
  });

  it('NOT_FOUND for an unknown API path', async () => {
    expectError(await http(server.url, '/api/v3/nothing', { auth: server.adminAuth }), 404, 'NOT_FOUND');
  });
});

describe('the 401 challenge', () => {
  it('offers only Bearer to scripts, so browsers show no password dialog', async () => {
    const response = await http(server.url, '/api/v3/command/datetime', {
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="pipework"');
  });
});

describe('requests the HTTP parser refuses', () => {
  async function raw(request: string): Promise<string> {
    const { connect } = await import('node:net');
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  }

  it('answers raw non-ASCII bytes in the URL with the error shape', async () => {
    const response = await raw('GET /api/v3/command/log?x=\u00ff\u00fe HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({
      value: { code: 'BAD_REQUEST' },
    });
  });

  it('answers oversized headers with 431 in the error shape', async () => {
    const response = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({
      value: { code: 'HEADERS_TOO_LARGE' },
    });
  });
});
