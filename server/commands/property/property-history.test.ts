// property.history.*: a stored pipeline changed three times, listed, diffed, restored and run again, over the
// real HTTP server; the read and write rights on the key; a deleted key; nothing written on a failed restore.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, putPipeline } from '../../testing/http-client';
import { callCommand, codeOf } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
let ann: string;
let annUuid: string;
beforeAll(async () => {
  server = await startTestServer();
  const a = await server.services.iam.createUser({
    username: 'ann',
    password: 'ann-pw',
    roles: ['ROLE_USER'],
  });
  annUuid = a.uuid;
  ann = server.basicAuth('ann', 'ann-pw');
});
afterAll(() => server.close());

const KEY = 'global/app/hist/pipeline/greet';
const script = (word: string) => `pipeline:\n  - set.body:\n      value: "${word}"\n`;

async function storePipeline(text: string) {
  const stored = await putPipeline(server.url, KEY, text, server.adminAuth);
  expect(stored.status).toBe(200);
}

const run = async () =>
  (await http(server.url, `/api/v3/pipeline:${KEY}`, { auth: server.adminAuth, method: 'POST' })).text;

const command = (name: string, params: Record<string, unknown>, auth = server.adminAuth) =>
  callCommand('pipeline', server.url, name, params, auth);

describe('property history commands', () => {
  it('shows a pipeline changed three times, diffs two versions, restores the first and runs it', async () => {
    await storePipeline(script('one'));
    await storePipeline(script('two'));
    await storePipeline(script('three'));
    await storePipeline(script('four'));
    expect(await run()).toBe('four');

    const listed = await command('property.history.list', { path: KEY });
    expect(listed.status).toBe(200);
    const versions = listed.json as {
      id: number;
      kind: string;
      version: number;
      actor: string;
      actorName: string;
    }[];
    expect(versions.map((v) => [v.kind, v.version])).toEqual([
      ['changed', 4],
      ['changed', 3],
      ['changed', 2],
      ['created', 1],
    ]);
    expect(versions[0]!.actor).toMatch(/^[0-9a-f-]{36}$/);
    expect(versions[0]!.actorName).toBe('admin');

    const first = versions[3]!.id;
    const diff = await command('property.history.diff', { path: KEY, from: first, to: versions[1]!.id });
    expect(diff.status).toBe(200);
    expect(diff.json.patch).toContain('-      value: "one"');
    expect(diff.json.patch).toContain('+      value: "three"');
    expect(diff.json.changed).toEqual({ value: true, type: false });
    const toNow = await command('property.history.diff', { path: KEY, from: versions[0]!.id });
    expect([toNow.json.to.label, toNow.json.patch]).toEqual(['current', '']);

    const restored = await command('property.history.restore', { path: KEY, version: first });
    expect(restored.status).toBe(200);
    expect(restored.json).toMatchObject({ restoredFrom: first, result: 'update', property: { version: 5 } });
    expect(await run()).toBe('one');
    const after = await command('property.history.list', { path: KEY, limit: 1 });
    expect(after.json).toMatchObject([{ kind: 'changed', version: 5 }]);
    const got = await command('property.history.get', { path: KEY, version: after.json[0].id });
    expect(got.json.value).toBe(script('one'));
  });

  it('needs the read right to see a history and the write right to restore', async () => {
    const mine = `user/${annUuid}/note`;
    const res = await command('property.schema.put', { key: mine, value: 'a' }, ann);
    expect(res.status).toBe(200);
    await command('property.put', { key: mine, value: 'b' }, ann);
    const own = await command('property.history.list', { key: mine }, ann);
    expect(own.json).toHaveLength(2);
    const other = `user/${annUuid}/../../global`;
    expect((await command('property.history.list', { key: other }, ann)).status).toBe(400);
    await command('property.schema.put', { key: 'user/someone-else/secret', value: 's' });
    expect(codeOf(await command('property.history.list', { key: 'user/someone-else/secret' }, ann))).toBe(
      'FORBIDDEN',
    );
    const pipelineVersions = (await command('property.history.list', { key: KEY }, ann)).json;
    expect(
      codeOf(await command('property.history.restore', { key: KEY, version: pipelineVersions[1].id }, ann)),
    ).toBe('FORBIDDEN');
  });

  it('restores a version of a deleted key by creating it again; the deletion itself cannot be restored', async () => {
    const key = 'global/hist/gone';
    await command('property.schema.put', { key, value: '{"a":1}', type: 'application/json', timeToLive: 60 });
    await command('property.delete', { key });
    const [deletion, creation] = (await command('property.history.list', { key })).json;
    expect([deletion.kind, creation.kind]).toEqual(['deleted', 'created']);
    const refused = await command('property.history.restore', { key, version: deletion.id });
    expect([codeOf(refused), refused.json.value.message]).toEqual([
      'PARAM_INVALID',
      expect.stringContaining('records its deletion'),
    ]);
    expect(
      codeOf(await command('property.history.restore', { key, version: creation.id, expectedVersion: 1 })),
    ).toBe('CONFLICT');
    expect((await command('property.history.list', { key })).json).toHaveLength(2);
    const back = await command('property.history.restore', { key, version: creation.id });
    expect(back.json).toMatchObject({ result: 'create', property: { value: '{"a":1}', timeToLive: 60 } });
    expect(codeOf(await command('property.history.get', { key, version: 999_999 }))).toBe('NOT_FOUND');
  });

  it('writes nothing when a restore fails its compare-and-swap', async () => {
    const key = 'global/hist/cas';
    await command('property.schema.put', { key, value: 'a' });
    await command('property.put', { key, value: 'b' });
    const versions = (await command('property.history.list', { key })).json;
    const stale = await command('property.history.restore', {
      key,
      version: versions[1].id,
      expectedVersion: 1,
    });
    expect(codeOf(stale)).toBe('CONFLICT');
    expect((await command('property.history.list', { key })).json).toHaveLength(2);
    expect((await command('property.get', { key })).json.value).toBe('b');
  });
});
