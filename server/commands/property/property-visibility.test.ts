import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';

/**
 * Real users in the database: ann (group sales, tenant acme), ben (group ops, tenant globex), and the admin.
 * Both are developers (they hold every property.* permission), so only the folder rules stand between them.
 */
let server: TestServer;
let ann: string;
let ben: string;
let ids: { ann: string; ben: string; sales: string; ops: string; acme: string; globex: string };

beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  const sales = await iam.groups.create({ name: 'sales' });
  const ops = await iam.groups.create({ name: 'ops' });
  const acme = await iam.tenants.create('acme');
  const globex = await iam.tenants.create('globex');
  const a = await iam.createUser({
    username: 'ann',
    password: 'ann-pw',
    roles: ['ROLE_DEVELOPER'],
    groups: ['sales'],
    tenants: ['acme'],
  });
  const b = await iam.createUser({
    username: 'ben',
    password: 'ben-pw',
    roles: ['ROLE_DEVELOPER'],
    groups: ['ops'],
    tenants: ['globex'],
  });
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
  ids = { ann: a.uuid, ben: b.uuid, sales: sales.uuid, ops: ops.uuid, acme: acme.uuid, globex: globex.uuid };
  const seed = [
    'global/app/shared/config',
    `user/${a.uuid}/notes`,
    `user/${a.uuid}/deep/secret`,
    `user/${b.uuid}/notes`,
    `user/${b.uuid}/deep/secret`,
    `group/${sales.uuid}/report`,
    `group/${ops.uuid}/secret`,
    `tenant/${acme.uuid}/app/crm/config`,
    `tenant/${globex.uuid}/app/crm/secret`,
  ];
  for (const key of seed)
    await server.services.properties.create(await iam.principalByUsername('admin'), { key, value: key });
  await server.services.properties.store.save({ key: 'global/app/delivery/config/app', value: 'built-in' });
});
afterAll(() => server.close());

const get = (name: string, params: Record<string, unknown>, auth: string) =>
  callCommand('GET', server.url, name, params, auth);
const pipe = (name: string, params: Record<string, unknown>, auth: string) =>
  callCommand('pipeline', server.url, name, params, auth);
const annMayRead = (key: string) =>
  key.startsWith('global/') ||
  key.startsWith(`user/${ids.ann}/`) ||
  key.startsWith(`group/${ids.sales}/`) ||
  key.startsWith(`tenant/${ids.acme}/`);

describe('listings never leak other users’ properties', () => {
  it.each([
    ['**'],
    ['*/**'],
    ['user/**'],
    ['*/*/*'],
    ['*/*/**'],
    ['user/*/notes'],
    ['**/secret'],
    ['group/**'],
    ['tenant/*/app/**'],
    ['*/*/deep/*'],
  ])('ann lists %s (GET and pipeline)', async (pattern) => {
    for (const response of [
      await get('property.list', { filter: pattern }, ann),
      await pipe('property.list', { pattern }, ann),
    ]) {
      expect(response.status).toBe(200);
      for (const p of response.json as { key: string; value: string }[]) {
        expect(annMayRead(p.key)).toBe(true);
        expect(p.value).not.toContain(ids.ben);
      }
    }
    const keys = await get('property.keys', { pattern }, ann);
    expect((keys.json as string[]).every(annMayRead)).toBe(true);
  });

  it('shows ann exactly her own, her group’s, her tenant’s and global properties', async () => {
    const keys = (await get('property.keys', { pattern: '**' }, ann)).json as string[];
    expect(keys).toEqual(
      [
        'global/app/delivery/config/app',
        'global/app/shared/config',
        `group/${ids.sales}/report`,
        `tenant/${ids.acme}/app/crm/config`,
        `user/${ids.ann}/deep/secret`,
        `user/${ids.ann}/notes`,
      ].sort(),
    );
    expect(((await get('property.keys', { pattern: '**' }, server.adminAuth)).json as string[]).length).toBe(
      10,
    );
  });

  it('shows only ann’s folders when browsing the tree', async () => {
    expect((await get('property.keys.children', { pattern: 'user' }, ann)).json).toEqual([
      `user/${ids.ann}/`,
    ]);
    expect((await get('property.keys.children', { pattern: 'group/' }, ann)).json).toEqual([
      `group/${ids.sales}/`,
    ]);
    expect((await get('property.keys.children', { pattern: `user/${ids.ben}` }, ann)).json).toEqual([]);
  });

  it('deletes by filter only what ann may see', async () => {
    await pipe('property.schema.put', { key: `user/${ids.ann}/tmp/a`, value: 'x' }, ann);
    await pipe('property.schema.put', { key: `user/${ids.ben}/tmp/b`, value: 'x' }, ben);
    expect((await pipe('property.delete', { filter: 'user/*/tmp/**' }, ann)).json).toEqual([
      `user/${ids.ann}/tmp/a`,
    ]);
    expect((await get('property.exists', { key: `user/${ids.ben}/tmp/b` }, ben)).json).toBe(true);
  });
});

describe('direct access to other folders is FORBIDDEN', () => {
  const other = () => `user/${ids.ben}/notes`;
  it.each<[string, () => [string, Record<string, string>]]>([
    ['property.get', () => ['property.get', { key: other() }]],
    ['property.value.get', () => ['property.value.get', { key: other() }]],
    ['property.exists', () => ['property.exists', { key: other() }]],
    ['property.put', () => ['property.put', { key: other(), value: 'x' }]],
    ['property.schema.put', () => ['property.schema.put', { key: `user/${ids.ben}/new`, value: 'x' }]],
    ['property.delete', () => ['property.delete', { key: other() }]],
    ['property.schema.delete', () => ['property.schema.delete', { key: other() }]],
    ['property.copy out', () => ['property.copy', { key: other(), to: `user/${ids.ann}/stolen` }]],
    [
      'property.copy in',
      () => ['property.copy', { key: `user/${ids.ann}/notes`, to: `user/${ids.ben}/gift` }],
    ],
    ['property.move', () => ['property.move', { key: other(), to: `user/${ids.ann}/stolen` }]],
    ['group of another', () => ['property.get', { key: `group/${ids.ops}/secret` }]],
    ['tenant of another', () => ['property.get', { key: `tenant/${ids.globex}/app/crm/secret` }]],
    ['attachment list', () => ['property.attachment.list', { key: other() }]],
  ])('%s', async (_name, make) => {
    const [name, params] = make();
    for (const response of [await get(name, params, ann), await pipe(name, params, ann)]) {
      expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
    }
  });

  it.each([
    ['a dot-dot escape', () => `user/${ids.ann}/../${ids.ben}/notes`],
    ['an encoded dot-dot', () => `user/${ids.ann}/%2e%2e/${ids.ben}/notes`],
    ['a double-encoded dot-dot', () => `user/${ids.ann}/%252e%252e/${ids.ben}/notes`],
    ['an empty segment', () => `user//${ids.ben}/notes`],
    ['a NUL', () => `user/${ids.ben}\u0000/notes`],
    ['a backslash', () => `user/${ids.ann}\\..\\${ids.ben}/notes`],
  ])('a key with %s is KEY_INVALID', async (_name, make) => {
    const response = await get('property.get', { key: make() }, ann);
    expect([response.status, codeOf(response)]).toEqual([400, 'KEY_INVALID']);
  });

  it('a key arriving percent-encoded in the URL is decoded once and still checked', async () => {
    const path = `/api/v3/command/property.get?key=user%2F${ids.ann}%2F..%2F${ids.ben}%2Fnotes`;
    const response = await http(server.url, path, { auth: ann });
    expect(codeOf(response)).toBe('KEY_INVALID');
  });

  it('@property answers null for what ann may not read', async () => {
    const yaml = `pipeline:\n  - set.body:\n      value: "#{@property.lazy('user/${ids.ben}/notes')}|#{@property.values('user/**').size()}|#{@property.get('group/${ids.ops}/secret')}"\n`;
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: ann,
      type: 'application/yaml',
      body: yaml,
    });
    expect(response.text).toBe('|2|');
  });
});

describe('reserved built-in apps', () => {
  it.each<[string, Record<string, string>]>([
    ['property.schema.put', { key: 'global/app/delivery/config/app', value: 'x' }],
    ['property.schema.put', { key: 'global/app/onboarding/form/new', value: 'x' }],
    ['property.put', { key: 'global/app/delivery/config/app', value: 'x' }],
    ['property.delete', { key: 'global/app/delivery/config/app' }],
    ['property.delete', { filter: 'global/app/**' }],
    ['property.schema.delete', { key: 'global/app/delivery/config/app' }],
    ['property.move', { key: 'global/app/delivery/config/app', to: 'global/app/mine/config/app' }],
    ['property.copy', { key: 'global/app/shared/config', to: 'global/app/sop/config' }],
    ['property.attachment.put', { key: 'global/app/delivery/config/app', name: 'a.txt', content: 'x' }],
  ])('%s %j is FORBIDDEN even for the admin', async (name, params) => {
    const response = await get(name, params, server.adminAuth);
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
    expect((await get('property.value.get', { key: 'global/app/delivery/config/app' }, ann)).text).toBe(
      'built-in',
    );
    expect((await get('property.exists', { key: 'global/app/shared/config' }, ann)).json).toBe(true);
  });
});
