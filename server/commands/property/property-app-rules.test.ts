// Apps guarded by a CAN_APP_<NAME> role, over HTTP in both forms: nothing of them shows through listings,
// limits, tree browsing, @property or a delete by filter to a user without the role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';

let server: TestServer;
let ann: string;
const GUARDED = [
  'global/app/aaa-secret/config',
  'global/app/aaa-secret/object/salary/v1/schema',
  'global/app/aaa-secret/object/salary/v1/instance/i1',
];
const OPEN = ['global/app/open/a', 'global/app/open/b', 'global/app/open/c'];

beforeAll(async () => {
  server = await startTestServer();
  const { iam, properties } = server.services;
  await iam.roles.create({ name: 'CAN_APP_AAA-SECRET' });
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  const admin = await iam.principalByUsername('admin');
  for (const key of [...GUARDED, ...OPEN]) await properties.create(admin, { key, value: '{}' });
});
afterAll(() => server.close());

const get = (name: string, params: Record<string, unknown>, auth = ann) =>
  callCommand('GET', server.url, name, params, auth);
const pipe = (name: string, params: Record<string, unknown>, auth = ann) =>
  callCommand('pipeline', server.url, name, params, auth);
const forms = [
  ['GET', get],
  ['pipeline', pipe],
] as const;

describe.each(forms)('a guarded app, for a user without its role (%s form)', (_form, call) => {
  it('is refused when read directly', async () => {
    const response = await call('property.get', { key: GUARDED[0]! });
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
  });

  it('never shows in listings, and a limit counts only what the user may see', async () => {
    expect((await call('property.keys', { pattern: 'global/app/**' })).json).toEqual(OPEN);
    const limited = await call('property.list', { pattern: 'global/app/**', limit: '2' });
    expect(limited.json.map((p: { key: string }) => p.key)).toEqual(OPEN.slice(0, 2));
  });

  it('shows neither its folder nor its sub-folders when browsing the tree', async () => {
    expect((await call('property.keys.children', { pattern: 'global/app' })).json).toEqual([
      'global/app/open/',
    ]);
    expect((await call('property.keys.children', { pattern: 'global/app/aaa-secret' })).json).toEqual([]);
    expect(
      (await call('property.keys.children', { pattern: 'global/app/aaa-secret/object/salary/v1' })).json,
    ).toEqual([]);
  });

  it('is left alone by a delete by filter, which names none of its keys', async () => {
    await call('property.schema.put', { key: 'global/app/open/tmp', value: 'x' });
    const response = await call('property.delete', { filter: 'global/app/*/**' });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([...OPEN, 'global/app/open/tmp']);
    expect(response.text).not.toContain('aaa-secret');
    for (const key of OPEN) await call('property.schema.put', { key, value: '{}' });
    const kept = await get('property.keys', { pattern: 'global/app/aaa-secret/**' }, server.adminAuth);
    expect(kept.json).toEqual([...GUARDED].sort());
  });
});

describe('a guarded app, for its role holders', () => {
  it('shows in listings, tree and @property', async () => {
    const { iam } = server.services;
    await iam.createUser({
      username: 'cat',
      password: 'cat-pw',
      roles: ['ROLE_DEVELOPER', 'CAN_APP_AAA-SECRET'],
    });
    const cat = server.basicAuth('cat', 'cat-pw');
    expect((await get('property.keys', { pattern: 'global/app/aaa-secret/**' }, cat)).json).toHaveLength(3);
    expect((await get('property.keys.children', { pattern: 'global/app' }, cat)).json).toEqual([
      'global/app/aaa-secret/',
      'global/app/open/',
    ]);
    const yaml =
      'pipeline:\n  - set.body:\n      value: "#{@property.values(\'global/app/*/config\').size()}"\n';
    for (const [auth, expected] of [
      [cat, '1'],
      [ann, '0'],
    ] as const) {
      const response = await http(server.url, '/api/v3/pipeline', {
        auth,
        type: 'application/yaml',
        body: yaml,
      });
      expect(response.text).toBe(expected);
    }
  });
});
