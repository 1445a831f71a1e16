/**
 * Finding 7 of issue 18 (the parts fixed here), each against the real server: the cache shared between the
 * admin and users of no tenant, the drive without quota, two IPv6 spellings the SSRF guard missed, 500s from a
 * non-Latin-1 header value and a stored type with non-ASCII parameters, CSV's `__proto__` column dropped, XML's
 * `&lt;` left undecoded, and YAML's `.inf` and `1e400` turned into null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackListener, type LoopbackListener } from '../http-client/loopback-listener';
import { http, type HttpResponse } from '../testing/http-client';
import { basicAuth, startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let listener: LoopbackListener;
let developer: string;
let user: string;

beforeAll(async () => {
  [server, listener] = await Promise.all([
    startTestServer({
      env: {
        PIPEWORK_DRIVE_QUOTA_PER_ROOT: String(64 * 1024),
        PIPEWORK_DRIVE_QUOTA_TOTAL: String(160 * 1024),
      },
    }),
    startLoopbackListener('127.0.0.1'),
  ]);
  await server.services.iam.createUser({
    username: 'dev',
    password: 'dev-password-1',
    roles: ['ROLE_DEVELOPER'],
  });
  await server.services.iam.createUser({ username: 'uma', password: 'uma-password-1' });
  developer = basicAuth('dev', 'dev-password-1');
  user = basicAuth('uma', 'uma-password-1');
});
afterAll(async () => {
  await Promise.all([server.close(), listener.close()]);
});

const pipeline = (auth: string, yaml: string, body?: string) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/yaml',
    body: body === undefined ? yaml : `body: ${JSON.stringify(body)}\n${yaml}`,
  });
const code = (r: HttpResponse) => r.json?.value?.code as string | undefined;

describe('the cache', () => {
  it('F01 a developer without a tenant can neither read nor clear the admin entries', async () => {
    const put = await pipeline(
      server.adminAuth,
      'pipeline:\n  - cache.put:\n      key: token\n      value: admin-secret\n',
    );
    expect(put.status).toBeLessThan(300);
    const read = await pipeline(developer, 'pipeline:\n  - cache.get:\n      key: token\n');
    expect(read.text).not.toContain('admin-secret');
    await pipeline(developer, 'pipeline:\n  - cache.clear\n');
    await pipeline(user, 'pipeline:\n  - cache.remove:\n      key: token\n');
    const still = await pipeline(server.adminAuth, 'pipeline:\n  - cache.get:\n      key: token\n');
    expect(still.text).toContain('admin-secret');
  });
});

describe('the drive', () => {
  it('F02 drive.copy cannot fill the disk: past the quota LIMIT_EXCEEDED, nothing written', async () => {
    const save = await http(server.url, '/api/v3/command/drive.save?path=blob.bin', {
      auth: developer,
      type: 'application/octet-stream',
      body: new Uint8Array(20 * 1024),
    });
    expect(save.status).toBe(200);
    const answers: HttpResponse[] = [];
    for (let i = 0; i < 5; i++) {
      await http(server.url, `/api/v3/command/drive.mkdir?path=c${i}`, { auth: developer });
      answers.push(
        await http(server.url, `/api/v3/command/drive.copy?path=blob.bin&to=c${i}`, { auth: developer }),
      );
    }
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.status).toBe(422);
    expect(code(refused[0]!)).toBe('LIMIT_EXCEEDED');
    expect(refused[0]!.json.value.message).toContain('quota');
    const list = await http(server.url, '/api/v3/command/drive.list?path=c4', { auth: developer });
    expect(list.json).toEqual([]);
  });

  it('F03 a streamed save past the quota stops with LIMIT_EXCEEDED and leaves nothing', async () => {
    const save = await http(server.url, '/api/v3/command/drive.save?path=huge.bin', {
      auth: server.adminAuth,
      type: 'application/octet-stream',
      body: new Uint8Array(100 * 1024),
    });
    expect(save.status).toBe(422);
    expect(code(save)).toBe('LIMIT_EXCEEDED');
    const exists = await http(server.url, '/api/v3/command/drive.exists?path=huge.bin', {
      auth: server.adminAuth,
    });
    expect(exists.json).toBe(false);
  });
});

describe('outbound HTTP', () => {
  it.each([
    ['F04', (port: number) => `http://[::ffff:0:127.0.0.1]:${port}/json`],
    ['F05', (port: number) => `http://[64:ff9b:1::7f00:1]:${port}/json`],
  ])('%s refuses an IPv6 spelling of a non-public address', async (_id, url) => {
    const response = await pipeline(
      server.adminAuth,
      `pipeline:\n  - http.get:\n      url: "${url(listener.port)}"\n`,
    );
    expect(code(response)).toBe('FORBIDDEN');
    expect(listener.connections()).toBe(0);
  });

  it('F06 http.post with a header value outside Latin-1 is PARAM_INVALID, not 500', async () => {
    const response = await pipeline(
      server.adminAuth,
      `pipeline:\n  - http.post:\n      url: "http://example.invalid/"\n      headers: {X-Name: "名前"}\n`,
    );
    expect(response.status).toBe(400);
    expect(code(response)).toBe('PARAM_INVALID');
    expect(response.json.value.parameter).toBe('headers');
  });
});

describe('stored types and transforms', () => {
  it('F07 a type with non-ASCII parameters is refused when stored (PARAM_INVALID), never a 500 when read', async () => {
    const response = await http(
      server.url,
      `/api/v3/command/property.schema.put?key=global/low/t&type=${encodeURIComponent('text/plain;name=ü')}`,
      { auth: server.adminAuth },
    );
    expect(response.status).toBe(400);
    expect(code(response)).toBe('PARAM_INVALID');
    const quoted = await http(
      server.url,
      `/api/v3/command/property.schema.put?key=global/low/t&type=${encodeURIComponent('application/x;name="日本"')}`,
      { auth: server.adminAuth },
    );
    expect(quoted.status).toBe(400);
  });

  it('F08 CSV with a __proto__ column is refused clearly, not dropped silently', async () => {
    const response = await pipeline(
      server.adminAuth,
      'pipeline:\n  - transform.csv.json:\n      rowsFormat: objects\n',
      '__proto__,name\nx,pen\n',
    );
    expect(response.status).toBe(400);
    expect(response.json.value.message).toContain('__proto__');
    expect(Object.prototype).not.toHaveProperty('name');
    const lists = await pipeline(
      server.adminAuth,
      'pipeline:\n  - transform.csv.json\n',
      '__proto__,name\nx,pen\n',
    );
    expect(lists.json).toEqual({
      columnsCount: 2,
      rowsCount: 1,
      headers: ['__proto__', 'name'],
      rows: [['x', 'pen']],
    });
  });

  it('F09 XML to JSON decodes the predefined entities and character references, never custom entities', async () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY boom "BOOM">]><a t="&quot;q&quot;"><b>1 &lt; 2 &amp;&amp; 3 &gt; 2</b><c>&#65;&#x42;&apos;</c><d>&boom;</d></a>';
    const response = await pipeline(server.adminAuth, 'pipeline:\n  - transform.xml.json\n', xml);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ a: { '@t': '"q"', b: '1 < 2 && 3 > 2', c: "AB'", d: '&boom;' } });
  });

  it.each([
    ['F10', 'n: .inf\n'],
    ['F11', 'list: [1, -.inf]\n'],
    ['F12', 'big: 1e400\n'],
    ['F13', 'x: .nan\n'],
  ])('%s YAML numbers JSON cannot hold are refused with where they are', async (_id, yaml) => {
    const response = await pipeline(server.adminAuth, 'pipeline:\n  - transform.yaml.json\n', yaml);
    expect(response.status).toBe(400);
    expect(response.json.value.message).toMatch(/JSON cannot hold/);
  });

  it('F14 quoted, they stay text', async () => {
    const response = await pipeline(server.adminAuth, 'pipeline:\n  - transform.yaml.json\n', 'n: ".inf"\n');
    expect(response.json).toEqual({ n: '.inf' });
  });
});
