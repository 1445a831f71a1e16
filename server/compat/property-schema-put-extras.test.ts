// `attachments` and `tags` on property.schema.put, as the command reference documents them: attachments as a
// URI or a PEL (here `$uri:drive:` and `#{body}` of a multipart pipeline call), loaded before anything is
// written; tags as the reference's `name1:value1, name2:value2`, shown by property.tag.list and on listings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const saved = await http(server.url, '/api/v3/command/drive.save?path=att/readme.txt', {
    auth: server.adminAuth,
    type: 'text/plain',
    body: 'Read me',
  });
  expect(saved.status).toBe(200);
});
afterAll(() => server.close());

const yaml = (body: string) =>
  http(server.url, '/api/v3/pipeline', { auth: server.adminAuth, type: 'application/yaml', body });
const command = (name: string, params: Record<string, string>) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth: server.adminAuth });

/** A multipart body as curl -F builds it. */
function multipart(parts: { name: string; filename?: string; type?: string; data: string }[]) {
  const boundary = '----Boundary0extras';
  let body = '';
  for (const p of parts) {
    const file = p.filename ? `; filename="${p.filename}"` : '';
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n`;
    body += `${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.data}\r\n`;
  }
  return { body: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

const exists = async (path: string) => (await command('property.exists', { path })).json;

describe('property.schema.put attachments', () => {
  it('a $uri:drive: reference becomes an attachment named like the file', async () => {
    const run = await yaml(
      'pipeline:\n  - property.schema.put:\n      path: global/att/one\n      value: hello\n' +
        '      attachments: $uri:drive:att/readme.txt\n',
    );
    expect(run.status).toBe(200);
    expect(run.json.attachments.map((a: { name: string }) => a.name)).toEqual(['readme.txt']);
    const content = await command('property.attachment.content', {
      path: 'global/att/one',
      name: 'readme.txt',
    });
    expect(content.text).toBe('Read me');
  });

  it('#{body} of a multipart pipeline call: each file part becomes an attachment', async () => {
    const { body, type } = multipart([
      {
        name: 'pipeline',
        data: 'pipeline:\n  - property.schema.put:\n      path: global/att/two\n      value: two\n      attachments: "#{body}"\n',
      },
      { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'AAA' },
      { name: 'file', filename: 'b.json', type: 'application/json', data: '{"b": 1}' },
    ]);
    const run = await http(server.url, '/api/v3/pipeline', { auth: server.adminAuth, type, body });
    expect(run.status).toBe(200);
    const listed = await command('property.attachment.list', { path: 'global/att/two' });
    expect(listed.json.map((a: { name: string }) => a.name).sort()).toEqual(['a.txt', 'b.json']);
    const b = await command('property.attachment.content', { path: 'global/att/two', name: 'b.json' });
    expect(b.text).toBe('{"b": 1}');
  });

  it('existStrategy skip on a taken key adds no attachments', async () => {
    const run = await yaml(
      'pipeline:\n  - property.schema.put:\n      path: global/att/one\n      value: other\n' +
        '      existStrategy: skip\n      attachments: $uri:drive:att/readme.txt\n',
    );
    expect(run.json.result).toBe('skip');
    expect(run.json.attachments).toBeUndefined();
  });

  it('an attachment that cannot be loaded stores nothing', async () => {
    const missing = await yaml(
      'pipeline:\n  - property.schema.put:\n      path: global/att/three\n      value: x\n' +
        '      attachments: $uri:drive:att/none.txt\n',
    );
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(await exists('global/att/three')).toBe(false);
    const notUri = await yaml(
      'pipeline:\n  - property.schema.put:\n      path: global/att/three\n      value: x\n      attachments: readme.txt\n',
    );
    expect([notUri.status, notUri.json.value.code, notUri.json.value.parameter]).toEqual([
      400,
      'PARAM_INVALID',
      'attachments',
    ]);
    expect(await exists('global/att/three')).toBe(false);
  });
});

describe('property.schema.put tags', () => {
  it('stores the tags the reference writes, shows them on property.tag.list and property.list', async () => {
    const r = await http(
      server.url,
      `/api/v3/command/property.schema.put?${new URLSearchParams({ path: 'global/att/tagged', value: 'v', tags: 'name1:value1, name2:value2' })}`,
      { auth: server.adminAuth, method: 'POST' },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ result: 'create', tags: { name1: 'value1', name2: 'value2' } });
    const listed = await command('property.tag.list', { path: 'global/att/tagged' });
    expect(listed.json).toEqual({ name1: 'value1', name2: 'value2' });
    const list = await command('property.list', { pattern: 'global/att/tagged' });
    expect(list.json).toMatchObject([
      { key: 'global/att/tagged', tags: { name1: 'value1', name2: 'value2' } },
    ]);
  });

  it('refuses a tag without a name, and stores nothing', async () => {
    const r = await http(
      server.url,
      `/api/v3/command/property.schema.put?${new URLSearchParams({ path: 'global/att/badtag', value: 'v', tags: ':value1' })}`,
      { auth: server.adminAuth, method: 'POST' },
    );
    expect([r.status, r.json.value.code, r.json.value.parameter]).toEqual([400, 'PARAM_INVALID', 'tags']);
    expect(await exists('global/att/badtag')).toBe(false);
  });

  it('answers a write to a locked property over HTTP with 409, naming who holds the lock', async () => {
    await command('property.schema.put', { path: 'global/att/locked', value: 'v' });
    const lock = await http(
      server.url,
      '/api/v3/command/property.lock.put?path=global/att/locked&type=global',
      {
        auth: server.adminAuth,
        method: 'POST',
      },
    );
    expect(lock.status).toBe(200);
    const put = await http(server.url, '/api/v3/command/property.put?path=global/att/locked&value=w', {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect([put.status, put.json.value.code]).toEqual([409, 'CONFLICT']);
    expect(put.json.value.message).toContain('only ROLE_SYSTEM may change it');
    const value = await command('property.value.get', { path: 'global/att/locked' });
    expect(value.text).toBe('v');
  });

  it('takes the trash bin parameters as the reference writes them in a URL', async () => {
    await command('property.schema.put', { path: 'global/bin/a', value: 'A' });
    const del = await http(
      server.url,
      '/api/v3/command/property.delete?pattern=global/bin/**&trashBin=true&trashBinTimeToLive=86400000',
      { auth: server.adminAuth, method: 'POST' },
    );
    expect([del.status, del.json]).toEqual([200, ['global/bin/a']]);
    expect((await command('property.list', { pattern: 'global/bin/**' })).json).toEqual([]);
    const listed = await command('property.list', { pattern: 'global/bin/**', includeTrashed: 'true' });
    expect(listed.json).toMatchObject([{ key: 'global/bin/a', value: 'A', trashed: true }]);
    expect(listed.json[0].purgeAt - listed.json[0].trashedAt).toBe(86_400_000);
    const restored = await http(server.url, '/api/v3/command/property.lock.remove?path=global/bin/a', {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect(restored.json).toMatchObject({ removed: true, restored: { key: 'global/bin/a' } });
    expect((await command('property.value.get', { path: 'global/bin/a' })).text).toBe('A');
  });
});
