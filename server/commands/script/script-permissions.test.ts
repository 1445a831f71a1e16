import { afterAll, beforeAll, expect, it } from 'vitest';
import { callCommand, codeOf } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';

/** Scripts read properties as the caller: ann may not load or read what only ben (or the admin) may see. */
let server: TestServer;
let ann: string;
let annId: string;
let benId: string;

beforeAll(async () => {
  server = await startTestServer();
  const { iam, properties } = server.services;
  const a = await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  const b = await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  annId = a.uuid;
  benId = b.uuid;
  const admin = await iam.principalByUsername('admin');
  const script = 'function command(pi) { return "ran as the owner"; }';
  await properties.create(admin, { key: `user/${benId}/script/private.js`, value: script });
  await properties.create(admin, { key: `user/${annId}/script/mine.js`, value: script });
  await properties.create(admin, { key: `user/${benId}/notes`, value: 'ben only' });
  await properties.create(admin, { key: `user/${annId}/notes`, value: 'ann only' });
});
afterAll(() => server.close());

const run = (params: Record<string, unknown>) =>
  callCommand('pipeline', server.url, 'script.run', params, ann);

it("loads a script from a property the caller may read, and not from another user's", async () => {
  const own = await run({ path: `property:user/${annId}/script/mine.js` });
  expect(own.status).toBe(200);
  expect(own.text).toBe('ran as the owner');
  const other = await run({ path: `user/${benId}/script/private.js` });
  expect(other.status).toBe(403);
  expect(codeOf(other)).toBe('FORBIDDEN');
  expect(other.text).not.toContain('ran as the owner');
});

it('reads properties from a script as the caller: a key the caller may not read answers null', async () => {
  const script = `function command(pi) {
    return { mine: pi.property.get('user/${annId}/notes'), his: pi.property.get('user/${benId}/notes'),
             missing: pi.property.get('user/${annId}/none'), exists: pi.util.property.exists('user/${benId}/notes') };
  }`;
  const response = await run({ script });
  expect(response.status).toBe(200);
  expect(response.json).toEqual({ mine: 'ann only', his: null, missing: null, exists: false });
});
