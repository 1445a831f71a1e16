import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = (path: string, options: Parameters<typeof http>[2] = {}) =>
  http(server.url, path, { auth: server.adminAuth, ...options });

describe('the command endpoints', () => {
  it.each(['/api/v3/command/datetime', '/api/v3/command:datetime'])(
    'GET %s?format=... formats the date',
    async (path) => {
      const response = await call(`${path}?format=${encodeURIComponent('dd.MM.yyyy')}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.text).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      const [d, m, y] = response.text.split('.').map(Number);
      const now = new Date();
      expect(
        Math.abs(
          Date.UTC(y!, m! - 1, d!) - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
        ),
      ).toBeLessThanOrEqual(86_400_000);
    },
  );

  it('formats in a time zone, and names a bad one', async () => {
    const tokyo = await call('/api/v3/command/datetime?timeZone=Asia/Tokyo');
    expect(tokyo.text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/);
    const bad = await call('/api/v3/command/datetime?timeZone=Mars/Base');
    expect(bad.status).toBe(400);
    expect(bad.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'timeZone' });
  });

  it('takes parameters from a form body', async () => {
    const response = await call('/api/v3/command/log', {
      body: 'message=from+a+form',
      type: 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(200);
    expect(response.text).toBe('from a form');
  });

  it('parses a JSON body into the input', async () => {
    const response = await call('/api/v3/command/log', { body: '{"a":[1,2]}', type: 'application/json' });
    expect(response.json).toEqual({ a: [1, 2] });
  });

  it('passes a text body on as text', async () => {
    const response = await call('/api/v3/command/log', { body: 'just text', type: 'text/plain' });
    expect(response.text).toBe('just text');
  });

  it('passes bytes on with their own mime type', async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 255]);
    const response = await fetch(`${server.url}/api/v3/command/log`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/pdf' },
      body: bytes,
    });
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('combines query parameters with a body as input', async () => {
    const response = await call('/api/v3/command/set?value=%23%7Bbody.n%20%2B%201%7D', {
      body: '{"n": 41}',
      type: 'application/json',
    });
    expect(response.json).toBe(42);
  });

  it('answers 200 with an empty body and no type when the result is null', async () => {
    const response = await call('/api/v3/command/set.body?value=null');
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
  });

  it('serves the pipeline schema without credentials under every name', async () => {
    for (const path of [
      '/api/v3/command:pipe.schema.v7',
      '/api/v3/pipe:pipe.schema.v7',
      '/api/v3/command/pipeline.schema',
    ]) {
      const response = await http(server.url, path);
      expect(response.status).toBe(200);
      expect(response.json.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(Object.keys(response.json.properties.pipeline.items.properties)).toContain('log');
    }
  });

  it('answers /healthz without credentials', async () => {
    const response = await http(server.url, '/healthz');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ok' });
  });
});
