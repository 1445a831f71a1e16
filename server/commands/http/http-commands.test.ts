import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackListener, type LoopbackListener } from '../../http-client/loopback-listener';
import { callCommand, codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
let listener: LoopbackListener;

beforeAll(async () => {
  [server, listener] = await Promise.all([
    startTestServer({
      env: {
        PIPEWORK_HTTP_ALLOW_HOSTS: 'localhost, 127.0.0.1',
        PIPEWORK_HTTP_MAX_RESPONSE: '100000',
        PIPEWORK_HTTP_MAX_REDIRECTS: '3',
        PIPEWORK_HTTP_TIMEOUT_MILLIS: '5000',
      },
    }),
    startLoopbackListener('127.0.0.1'),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), listener.close()]);
});

const pipeline = (script: object) =>
  http(server.url, '/api/v3/pipeline', {
    auth: server.adminAuth,
    type: 'application/json',
    body: JSON.stringify(script),
  });

describe.each(['GET', 'pipeline'] as const)('http.* commands, %s form', (form) => {
  const call = (name: string, params: Record<string, unknown>) =>
    callCommand(form, server.url, name, params, server.adminAuth);

  it('parses JSON, keeps text as text and bytes as bytes', async () => {
    expect((await call('http.get', { url: `${listener.url}/json` })).json).toEqual({ hello: 'world' });
    const text = await call('http.get', { url: `http://localhost:${listener.port}/text` });
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(text.text).toBe('plain text');
    const url = `${listener.url}/bytes`;
    const bytes =
      form === 'GET'
        ? await fetch(`${server.url}/api/v3/command/http.get?url=${encodeURIComponent(url)}`, {
            method: 'POST', // http.get reaches another system: a write, refused over GET
            headers: { authorization: server.adminAuth },
          })
        : await fetch(`${server.url}/api/v3/pipeline`, {
            method: 'POST',
            headers: { authorization: server.adminAuth, 'content-type': 'application/json' },
            body: JSON.stringify({ pipeline: [{ 'http.get': { url } }] }),
          });
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2, 255]));
  });

  it('names a downloaded file by its Content-Disposition, else by the last segment of its URL', async () => {
    const nameOf = async (path: string) => {
      const response = await pipeline({
        pipeline: [
          { 'http.get': { url: `${listener.url}${path}` } },
          { 'set.body': { value: '#{body.name}' } },
        ],
      });
      expect(response.status, response.text).toBe(200);
      return response.text;
    };
    expect(await nameOf('/files/report%202026.pdf')).toBe('report 2026.pdf');
    const disposition = (value: string) => `/files/x.bin?disposition=${encodeURIComponent(value)}`;
    expect(await nameOf(disposition("attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf"))).toBe('Résumé.pdf');
    expect(await nameOf(disposition('attachment; filename="../../etc/passwd"'))).toBe('passwd');
    expect(await nameOf(disposition('attachment; filename="unterminated'))).toBe('x.bin');
  });

  it.each(['post', 'put', 'patch', 'delete'])('sends http.%s with its body and headers', async (verb) => {
    const response = await call(`http.${verb}`, {
      url: `${listener.url}/echo`,
      body: '{"a":1}',
      headers: 'X-One: 1, X-Two: a,b',
    });
    expect(response.json).toMatchObject({ method: verb.toUpperCase(), body: '{"a":1}' });
    expect(response.json.headers).toMatchObject({
      'x-one': '1',
      'x-two': 'a,b',
      'content-type': 'application/json',
    });
  });

  it('fails on an error status unless ignoreErrorStatus, and gives the whole response with includeResponse', async () => {
    const failed = await call('http.get', { url: `${listener.url}/status/503` });
    expect(failed.status).toBe(502);
    expect(codeOf(failed)).toBe('UPSTREAM_FAILED');
    expect(failed.json.value.message).toContain('503');
    const ignored = await call('http.get', {
      url: `${listener.url}/status/404`,
      ignoreErrorStatus: true,
      includeResponse: true,
    });
    expect(ignored.json).toMatchObject({
      status: 404,
      body: 'status body',
      headers: { 'content-type': 'text/plain' },
    });
  });

  it('ends a slow call at its timeout, refuses an answer over the size limit, and stops endless redirects', async () => {
    const started = Date.now();
    const slow = await call('http.get', { url: `${listener.url}/slow?ms=3000`, timeout: 300 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(codeOf(slow)).toBe('LIMIT_EXCEEDED');
    const big = await call('http.get', { url: `${listener.url}/big?bytes=200000` });
    expect(codeOf(big)).toBe('LIMIT_EXCEEDED');
    const loop = await call('http.get', { url: `${listener.url}/loop` });
    expect(codeOf(loop)).toBe('UPSTREAM_FAILED');
    expect(loop.json.value.message).toContain('redirects');
  });

  it('refuses headers it sets itself and header values with line breaks', async () => {
    for (const headers of ['Host: evil.example', { 'X-A': 'one\r\nX-B: two' }, 'no colon here']) {
      const response = await call('http.get', { url: `${listener.url}/json`, headers });
      expect(codeOf(response)).toBe('PARAM_INVALID');
    }
  });
});

describe('http.* in pipelines', () => {
  it('sends the input as the body, writes to output, and follows a 303 with a GET', async () => {
    const response = await pipeline({
      body: { order: 7 },
      pipeline: [
        { 'http.post': { url: `${listener.url}/echo`, headers: { 'X-Map': 'yes' }, output: '#{vars.echo}' } },
        {
          'http.post': {
            url: `${listener.url}/redirect?status=303&to=${encodeURIComponent('/echo')}`,
            output: '#{vars.after}',
          },
        },
        {
          'set.body':
            '#{{ echoed: vars.echo.body, map: vars.echo.headers["x-map"], after: vars.after.method }}',
        },
      ],
    });
    expect(response.json).toEqual({ echoed: '{"order":7}', map: 'yes', after: 'GET' });
  });

  it('takes headers from an expression that points to a map or a list', async () => {
    const response = await pipeline({
      vars: { map: { 'X-From-Map': 'm' }, list: ['X-From-List: l'] },
      pipeline: [
        { 'http.get': { url: `${listener.url}/echo`, headers: '#{vars.map}', output: '#{vars.a}' } },
        { 'http.get': { url: `${listener.url}/echo`, headers: '#{vars.list}', output: '#{vars.b}' } },
        { 'set.body': "#{ {'map': vars.a.headers['x-from-map'], 'list': vars.b.headers['x-from-list']} }" },
      ],
    });
    expect(response.json).toEqual({ map: 'm', list: 'l' });
  });

  it('runs the shape of the corpus weclapp call (text body with templates, header as text)', async () => {
    const yaml = `vars:
  config: { token: "t-1", articleId: "A-9" }
pipeline:
  - http.post:
      url: "${listener.url}/echo"
      headers: "AuthenticationToken: #{vars.config.token}"
      body: |
        {
          "articleId": "#{vars.config.articleId}",
          "quantity": "1"
        }
  - set.body: "#{ {'sent': @json.parse(body.body), 'token': body.headers.authenticationtoken} }"
`;
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: yaml,
    });
    expect(response.json).toEqual({ sent: { articleId: 'A-9', quantity: '1' }, token: 't-1' });
  });
});

describe('the v7 schema', () => {
  it('lists script.run and the http.* commands with their parameters', async () => {
    const response = await http(server.url, '/api/v3/command:pipe.schema.v7');
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.json);
    for (const name of ['script.run', 'http.get', 'http.post', 'http.put', 'http.patch', 'http.delete']) {
      expect(text).toContain(`"${name}"`);
    }
    for (const parameter of ['ignoreErrorStatus', 'includeResponse', '"language"', '"path"']) {
      expect(text).toContain(parameter);
    }
  });
});
