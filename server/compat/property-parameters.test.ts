// The property and attachment commands under the real product's parameter names, as its command reference
// writes them: `path` beside `key`, `pattern` beside `filter`, paging and exclusions on property.list, the
// listed `path` with the instance prefix, and the attachment fields resumable clients read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (name: string, params: Record<string, string>) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth: server.adminAuth });
const put = (path: string, value: string) =>
  http(server.url, `/api/v3/command/property.schema.put?${new URLSearchParams({ path, value })}`, {
    auth: server.adminAuth,
    method: 'POST',
  });

describe('path beside key', () => {
  it('every property command takes path; key still works; both different is PARAM_INVALID', async () => {
    expect((await put('global/compat/a/one', '1')).status).toBe(200);
    expect((await get('property.get', { path: 'global/compat/a/one' })).json.value).toBe('1');
    expect((await get('property.get', { key: 'global/compat/a/one' })).json.value).toBe('1');
    expect((await get('property.exists', { path: 'global/compat/a/one' })).json).toBe(true);
    expect((await get('property.value.get', { path: 'global/compat/a/one' })).text).toBe('1');
    const both = await get('property.get', { path: 'global/compat/a/one', key: 'global/compat/a/two' });
    expect([both.status, both.json.value.code, both.json.value.parameter]).toEqual([
      400,
      'PARAM_INVALID',
      'path',
    ]);
    const none = await get('property.get', {});
    expect(none.json.value.code).toBe('PARAM_INVALID');
    const unknown = await get('property.get', { path: 'global/compat/a/one', nonsense: 'x' });
    expect(unknown.json.value.code).toBe('PARAM_INVALID');
  });

  it('a listed path (with the instance prefix) is accepted back as it was listed', async () => {
    await put('global/compat/b/x', 'x');
    const listed = await get('property.list', { pattern: 'global/compat/b/**' });
    expect(listed.json[0].path).toBe(`/pipeforce/${server.config.realm}/global/compat/b/x`);
    expect(listed.json[0].key).toBe('global/compat/b/x');
    expect((await get('property.get', { path: listed.json[0].path })).json.key).toBe('global/compat/b/x');
  });
});

describe('property.list paging and exclusions', () => {
  it('pages with offset and limit, leaves out excludePatterns; offset=-1 is PARAM_INVALID', async () => {
    for (const n of ['1', '2', '3', '4', '5']) await put(`global/compat/page/p${n}`, n);
    await put('global/compat/page/skip/me', 's');
    const page = await get('property.list', { pattern: 'global/compat/page/**', offset: '1', limit: '2' });
    expect(page.json.map((p: { key: string }) => p.key)).toEqual([
      'global/compat/page/p2',
      'global/compat/page/p3',
    ]);
    const rest = await get('property.list', {
      pattern: 'global/compat/page/**',
      offset: '3',
      excludePatterns: 'global/compat/page/skip/**',
    });
    expect(rest.json.map((p: { key: string }) => p.key)).toEqual([
      'global/compat/page/p4',
      'global/compat/page/p5',
    ]);
    const byFilter = await get('property.list', { filter: 'global/compat/page/*', limit: '1' });
    expect(byFilter.json).toHaveLength(1);
    const negative = await get('property.list', { pattern: 'global/compat/page/**', offset: '-1' });
    expect([negative.status, negative.json.value.code, negative.json.value.parameter]).toEqual([
      400,
      'PARAM_INVALID',
      'offset',
    ]);
  });
});

describe('pattern on property.schema.delete and property.delete', () => {
  it('deletes every matching property with a wildcard pattern', async () => {
    for (const n of ['1', '2']) await put(`global/compat/gone/g${n}`, n);
    await put('global/compat/kept/k', 'k');
    const deleted = await get('property.schema.delete', { pattern: 'global/compat/gone/*' });
    expect(deleted.status).toBe(200);
    expect(deleted.json.map((p: { key: string }) => p.key).sort()).toEqual([
      'global/compat/gone/g1',
      'global/compat/gone/g2',
    ]);
    expect((await get('property.exists', { path: 'global/compat/gone/g1' })).json).toBe(false);
    expect((await get('property.exists', { path: 'global/compat/kept/k' })).json).toBe(true);
    // Nothing matching: 200 with an empty body for one key, an empty list for a pattern.
    const nothing = await get('property.schema.delete', { pattern: 'global/compat/gone/g1' });
    expect([nothing.status, nothing.text]).toEqual([200, '']);
    await put('global/compat/gone/d', 'd');
    const byDelete = await get('property.delete', { pattern: 'global/compat/gone/**' });
    expect(byDelete.json).toEqual(['global/compat/gone/d']);
  });
});

describe('attachments under the real names', () => {
  it('puts by path, lists with numberOfChunks and collectionName', async () => {
    await put('global/compat/doc', 'd');
    const body = new TextEncoder().encode('%PDF-1.4 fake');
    const added = await http(
      server.url,
      '/api/v3/command/property.attachment.put?path=global/compat/doc&name=my.pdf',
      { auth: server.adminAuth, type: 'application/pdf', body },
    );
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({
      name: 'my.pdf',
      numberOfChunks: 1,
      collectionName: 'global/compat/doc',
    });
    const listed = await get('property.attachment.list', { path: 'global/compat/doc' });
    expect(listed.json).toEqual([
      expect.objectContaining({
        name: 'my.pdf',
        contentType: 'application/pdf',
        length: body.length,
        size: body.length,
        numberOfChunks: 1,
        collectionName: 'global/compat/doc',
      }),
    ]);
    const content = await get('property.attachment.content', { path: 'global/compat/doc', name: 'my.pdf' });
    expect(content.text).toBe('%PDF-1.4 fake');
  });
});

describe('resumable attachment commands', () => {
  it('property.attachment.checksum and property.attachment.chunk.content', async () => {
    await put('global/compat/resume', 'r');
    await http(server.url, '/api/v3/command/property.attachment.put?path=global/compat/resume&name=a.bin', {
      auth: server.adminAuth,
      type: 'application/octet-stream',
      body: new TextEncoder().encode('hello'),
    });
    const md5 = '5d41402abc4b2a76b9719d911017c592';
    const sum = await get('property.attachment.checksum', { path: 'global/compat/resume', name: 'a.bin' });
    expect(sum.text).toBe(md5);
    const checked = await get('property.attachment.checksum', {
      path: 'global/compat/resume',
      name: 'a.bin',
      checksum: md5,
    });
    expect(checked.status).toBe(200);
    const wrong = await get('property.attachment.checksum', {
      path: 'global/compat/resume',
      name: 'a.bin',
      checksum: '00',
    });
    expect([wrong.status, wrong.json.value.code]).toEqual([409, 'CONFLICT']);
    const uuid = (await get('property.get', { path: 'global/compat/resume' })).json.uuid;
    expect((await get('property.attachment.checksum', { uuid, name: 'a.bin' })).text).toBe(md5);
    const chunk = await get('property.attachment.chunk.content', {
      key: 'global/compat/resume',
      name: 'a.bin',
      index: '0',
    });
    expect(chunk.text).toBe('hello');
  });
});
