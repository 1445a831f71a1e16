// property.import as the real command reference writes it: `POST /api/v3/command/property.import?strategy=...`
// with a JSON list of properties (as property.list lists them) in the body; skip, update and rollback; one
// transaction, so a bad entry, an existing key under rollback, or a key the caller may not write imports nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let userAuth: string;
let otherUuid: string;
beforeAll(async () => {
  server = await startTestServer();
  await server.services.iam.createUser({ username: 'ilse', password: 'ilse-pw' });
  const otto = await server.services.iam.createUser({ username: 'otto', password: 'otto-pw' });
  otherUuid = otto.uuid;
  userAuth = server.basicAuth('ilse', 'ilse-pw');
});
afterAll(() => server.close());

const importList = (list: unknown, strategy?: string, auth = server.adminAuth) =>
  http(server.url, `/api/v3/command/property.import${strategy ? `?strategy=${strategy}` : ''}`, {
    auth,
    method: 'POST',
    body: typeof list === 'string' ? list : JSON.stringify(list),
    headers: { 'Content-Type': 'application/json' },
  });
const getValue = async (path: string) => {
  const r = await http(server.url, `/api/v3/command/property.get?path=${path}`, { auth: server.adminAuth });
  return r.status === 200 ? r.json.value : r.json.value.code;
};

describe('property.import', () => {
  it('imports what property.list lists (path with the instance prefix, store-set fields left alone)', async () => {
    const listed = [
      {
        path: `/pipeforce/${server.config.realm}/global/imp/a/one`,
        uuid: '529a38e7-9188-4135-b87b-3d890f6764f3',
        value: '{"n": 1}',
        defaultValue: null,
        type: 'application/json',
        created: 1613397114448,
        updated: null,
        timeToLive: null,
      },
      { path: 'global/imp/a/two', value: 'two' },
    ];
    const r = await importList(listed);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      created: 2,
      updated: 0,
      skipped: 0,
      results: [
        { path: 'global/imp/a/one', result: 'create' },
        { path: 'global/imp/a/two', result: 'create' },
      ],
    });
    const one = await http(server.url, '/api/v3/command/property.get?path=global/imp/a/one', {
      auth: server.adminAuth,
    });
    expect([one.json.value, one.json.type]).toEqual(['{"n": 1}', 'application/json']);
    expect(one.json.uuid).not.toBe('529a38e7-9188-4135-b87b-3d890f6764f3');
  });

  it('skip (the default) leaves existing keys; update overwrites them', async () => {
    await importList([{ path: 'global/imp/b/x', value: 'old' }]);
    const skipped = await importList([
      { path: 'global/imp/b/x', value: 'new' },
      { path: 'global/imp/b/y', value: 'y' },
    ]);
    expect([skipped.json.created, skipped.json.skipped]).toEqual([1, 1]);
    expect(await getValue('global/imp/b/x')).toBe('old');
    const updated = await importList([{ path: 'global/imp/b/x', value: 'new' }], 'update');
    expect(updated.json.results).toEqual([{ path: 'global/imp/b/x', result: 'update' }]);
    expect(await getValue('global/imp/b/x')).toBe('new');
  });

  it('rollback: one existing key imports nothing (PROPERTY_EXISTS)', async () => {
    await importList([{ path: 'global/imp/c/taken', value: 't' }]);
    const r = await importList(
      [
        { path: 'global/imp/c/fresh', value: 'f' },
        { path: 'global/imp/c/taken', value: 'other' },
      ],
      'rollback',
    );
    expect([r.status, r.json.value.code]).toEqual([409, 'PROPERTY_EXISTS']);
    expect(await getValue('global/imp/c/fresh')).toBe('PROPERTY_NOT_FOUND');
    expect(await getValue('global/imp/c/taken')).toBe('t');
  });

  it('a key the caller may not write imports nothing (FORBIDDEN), checked per key', async () => {
    const r = await importList(
      [
        { path: 'global/imp/d/mine', value: 'm' },
        { path: `user/${otherUuid}/imp/theirs`, value: 'x' },
      ],
      'update',
      userAuth,
    );
    expect([r.status, r.json.value.code]).toEqual([403, 'FORBIDDEN']);
    expect(await getValue('global/imp/d/mine')).toBe('PROPERTY_NOT_FOUND');
  });

  it('bad input is a clear error naming the entry, and nothing is written', async () => {
    const cases: [unknown, string, RegExp][] = [
      ['{"path": "global/imp/e/a"}', 'BAD_REQUEST', /JSON list/],
      ['[{"path": "global/imp/e/a", "value": "a"}, 7]', 'BAD_REQUEST', /Entry 1/],
      [[{ path: 'global/imp/e/a' }, { path: 'global/imp/e/b', colour: 'red' }], 'BAD_REQUEST', /colour/],
      [[{ path: 'global/imp/e/a' }, { value: 'no path' }], 'BAD_REQUEST', /'path' is missing/],
      [[{ path: 'global/imp/e/a' }, { path: 'global/imp/e/a' }], 'BAD_REQUEST', /twice/],
      [[{ path: 'global/imp/e/a' }, { path: 'nowhere/x' }], 'KEY_INVALID', /nowhere/],
      [[{ path: 'global/imp/e/a' }, { path: 'global/imp/e/b', timeToLive: -1 }], 'BAD_REQUEST', /timeToLive/],
      ['[{"path": "global/imp/e/a"', 'BAD_REQUEST', /./],
    ];
    for (const [body, code, message] of cases) {
      const r = await importList(body);
      expect([r.status >= 400, r.json?.value?.code ?? r.json?.code], JSON.stringify(body)).toEqual([
        true,
        code,
      ]);
      expect(r.json?.value?.message ?? r.json?.message).toMatch(message);
    }
    expect(await getValue('global/imp/e/a')).toBe('PROPERTY_NOT_FOUND');
    const strategy = await importList([{ path: 'global/imp/e/a' }], 'merge');
    expect(strategy.json.value.code).toBe('PARAM_INVALID');
    expect(await getValue('global/imp/e/a')).toBe('PROPERTY_NOT_FOUND');
  });
});
