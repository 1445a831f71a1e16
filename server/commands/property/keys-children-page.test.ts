// property.keys.children.page over HTTP: pages that add up to property.keys.children, the same visibility,
// and a folder of 20,000 properties whose first page comes back without walking the folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';
import { allChildrenPages } from '../../store/property-store-contract-support';
import type { SqlitePropertyStore } from '../../store/sqlite/sqlite-property-store';

let server: TestServer;
let ann: string;
let annUuid: string;
let benUuid: string;
const BIG = 20_000;

beforeAll(async () => {
  server = await startTestServer();
  const { iam, properties } = server.services;
  await iam.roles.create({ name: 'CAN_APP_SECRET' });
  annUuid = (await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] })).uuid;
  benUuid = (await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] })).uuid;
  ann = server.basicAuth('ann', 'ann-pw');
  const admin = await iam.principalByUsername('admin');
  const keys = [
    'global/t/a',
    'global/t/a-1',
    'global/t/a/x',
    'global/t/a/y/z',
    'global/t/a.b',
    'global/t/b',
    'global/t/c/d',
    'global/app/open/config',
    'global/app/secret/config',
    `user/${annUuid}/notes`,
    `user/${benUuid}/notes`,
  ];
  for (const key of keys) await properties.create(admin, { key, value: 'v' });
  const db = (properties.store as SqlitePropertyStore).db;
  const insert = db.prepare(
    "INSERT INTO property (uuid, key, value, type, created, version) VALUES (?, ?, 'v', 'text/plain', ?, 1)",
  );
  db.transaction(() => {
    for (let i = 0; i < BIG; i++)
      insert.run(crypto.randomUUID(), `global/big/item${String(i).padStart(6, '0')}`, Date.now());
  })();
});
afterAll(() => server.close());

const call = (name: string, params: Record<string, unknown>, auth = server.adminAuth) =>
  callCommand('GET', server.url, name, params, auth);

/** Every page of a folder, following `next`. */
function allPages(pattern: string, limit: number, auth = server.adminAuth): Promise<string[][]> {
  return allChildrenPages(async (after) => {
    const params = { pattern, limit, ...(after ? { after } : {}) };
    const response = await call('property.keys.children.page', params, auth);
    expect(response.status).toBe(200);
    return response.json;
  }, limit);
}

describe('property.keys.children.page', () => {
  it.each([1, 2, 3, 100])('pages of %i add up to the whole level, in order', async (limit) => {
    const whole = (await call('property.keys.children', { pattern: 'global/t' })).json;
    expect(whole).toEqual([
      'global/t/a',
      'global/t/a-1',
      'global/t/a.b',
      'global/t/a/',
      'global/t/b',
      'global/t/c/',
    ]);
    const pages = await allPages('global/t/', limit);
    expect(pages.flat()).toEqual(whole);
    expect(pages.every((p) => p.length <= limit)).toBe(true);
    expect(pages.at(-1)!.length).toBeGreaterThan(0);
  });

  it('shows a user only what they may read, like property.keys.children', async () => {
    for (const pattern of ['', 'user', 'global/app']) {
      const whole = (await call('property.keys.children', pattern ? { pattern } : {}, ann)).json;
      expect((await allPages(pattern, 1, ann)).flat()).toEqual(whole);
    }
    expect((await allPages('global/app', 10, ann)).flat()).toEqual(['global/app/open/']);
    expect((await allPages('user', 10, ann)).flat()).toEqual([`user/${annUuid}/`]);
    expect((await allPages('user', 10)).flat()).toEqual([`user/${annUuid}/`, `user/${benUuid}/`].sort());
  });

  it('answers the first page of a folder of 20,000 at once, and walks it page by page', async () => {
    const started = performance.now();
    const first = await call('property.keys.children.page', { pattern: 'global/big/', limit: 100 });
    const firstMs = performance.now() - started;
    expect(first.json.children).toHaveLength(100);
    expect(first.json.next).toBe('global/big/item000099');
    const whole = await call('property.keys.children', { pattern: 'global/big/' });
    expect(whole.json).toHaveLength(BIG);
    // Far less than walking the whole folder (which reads 20,000 keys): generous for a loaded machine.
    expect(firstMs).toBeLessThan(250);
    const pages = await allPages('global/big/', 1000);
    expect(pages).toHaveLength(BIG / 1000);
    expect(pages.flat()).toEqual(whole.json);
  });

  it('refuses a cursor outside the folder and a limit over 1000', async () => {
    const outside = await call('property.keys.children.page', { pattern: 'global/t', after: 'global/x/a' });
    expect([outside.status, codeOf(outside)]).toEqual([400, 'PARAM_INVALID']);
    const deep = await call('property.keys.children.page', { pattern: 'global/t', after: 'global/t/a/x' });
    expect([deep.status, codeOf(deep)]).toEqual([400, 'PARAM_INVALID']);
    const big = await call('property.keys.children.page', { pattern: 'global/t', limit: 1001 });
    expect([big.status, codeOf(big)]).toEqual([400, 'PARAM_INVALID']);
  });
});
