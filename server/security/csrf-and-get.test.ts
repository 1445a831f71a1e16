/**
 * Finding 3 of issue 18, the request side: a command that writes does not run over GET (a link or an image
 * could send it with the browser's credentials), and a request from another site's page (its `Origin`, or
 * `Sec-Fetch-Site: cross-site`) is refused before it runs. Clients without these headers keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_ALLOWED_ORIGINS: 'https://portal.example.com' } });
});
afterAll(() => server.close());

const exists = async (key: string) =>
  (await http(server.url, `/api/v3/command/property.exists?key=${key}`, { auth: server.adminAuth })).json;

describe('commands that write refuse GET', () => {
  it.each([
    ['C01', 'property.schema.put', 'key=global/csrf/get1'],
    ['C02', 'iam.user.create', 'username=mallory&password=mallory-password-1'],
    ['C03', 'property.delete', 'key=global/csrf/none'],
    ['C04', 'cache.clear', ''],
    ['C05', 'drive.mkdir', 'path=csrf'],
    ['C06', 'script.run', 'script=1'],
  ])('%s GET %s answers 405 and writes nothing', async (_id, name, query) => {
    const response = await http(server.url, `/api/v3/command/${name}?${query}`, {
      method: 'GET',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.json).toMatchObject({
      status: 'error',
      value: { code: 'METHOD_NOT_ALLOWED', commandName: name },
    });
  });

  it('C07 the refused GET wrote nothing; the same call over POST does', async () => {
    await http(server.url, '/api/v3/command/property.schema.put?key=global/csrf/get2', {
      method: 'GET',
      auth: server.adminAuth,
    });
    expect(await exists('global/csrf/get2')).toBe(false);
    const users = await http(server.url, '/api/v3/command/iam.user.get?username=mallory', {
      auth: server.adminAuth,
    });
    expect(users.status).toBe(404);
    const post = await http(server.url, '/api/v3/command/property.schema.put?key=global/csrf/get2', {
      method: 'POST',
      auth: server.adminAuth,
    });
    expect(post.status).toBe(200);
    expect(await exists('global/csrf/get2')).toBe(true);
  });

  it('C08 the documented GET reads keep working (also the colon form)', async () => {
    for (const path of [
      '/api/v3/command/property.list?pattern=global/**',
      '/api/v3/command:property.exists?key=global/csrf/get2',
      '/api/v3/command/datetime',
      '/api/v3/command/log?message=hi',
    ]) {
      const response = await http(server.url, path, { method: 'GET', auth: server.adminAuth });
      expect(response.status, path).toBeLessThan(300);
    }
  });

  it('C09 an unknown command over GET is still COMMAND_NOT_FOUND', async () => {
    const response = await http(server.url, '/api/v3/command/no.such', {
      method: 'GET',
      auth: server.adminAuth,
    });
    expect(response.json?.value?.code).toBe('COMMAND_NOT_FOUND');
  });
});

describe('cross-origin browser requests are refused', () => {
  const pipeline = 'pipeline:\n  - property.schema.put:\n      key: global/csrf/cross\n';

  it('C10 a text/plain POST of a pipeline from another origin does not run', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'text/plain',
      body: pipeline,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ status: 'error', statusCode: 403, value: { code: 'FORBIDDEN' } });
    expect(await exists('global/csrf/cross')).toBe(false);
  });

  it('C11 Origin: null (a sandboxed page) is refused', async () => {
    const response = await http(server.url, '/api/v3/command/property.schema.put?key=global/csrf/null', {
      auth: server.adminAuth,
      headers: { origin: 'null' },
    });
    expect(response.status).toBe(403);
    expect(await exists('global/csrf/null')).toBe(false);
  });

  it('C12 Sec-Fetch-Site: cross-site without Origin (a navigation from another site) is refused', async () => {
    const response = await http(server.url, '/api/v3/command/property.list?pattern=global/**', {
      auth: server.adminAuth,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });

  it('C13 the token endpoint refuses another origin too (no login CSRF)', async () => {
    const response = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/token', {
      type: 'application/x-www-form-urlencoded',
      body: 'grant_type=password&client_id=pipework-cli&username=admin&password=x',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('C14 a port of our host that is not ours is another origin', async () => {
    const host = new URL(server.url);
    const response = await http(server.url, '/api/v3/command/datetime', {
      auth: server.adminAuth,
      headers: { origin: `http://${host.hostname}:1` },
    });
    expect(response.status).toBe(403);
  });

  it('C15 our own origin, a configured origin, same-origin fetches and clients without Origin pass', async () => {
    const cases: Record<string, string>[] = [
      { origin: server.url },
      { origin: 'https://portal.example.com' },
      { 'sec-fetch-site': 'same-origin', origin: server.url },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of cases) {
      const response = await http(server.url, '/api/v3/pipeline', {
        auth: server.adminAuth,
        type: 'application/yaml',
        body: 'pipeline:\n  - set.body: ok\n',
        headers,
      });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });
});
