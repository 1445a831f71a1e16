// The `show` key of an app's config/app over HTTP in both forms: a user without one of its roles is not offered
// the app (the apps listing leaves it out) and its instances are refused; holders of the role, developers and
// admins see it; a change of config/app takes effect without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { appOfConfigKey, showRolesOf } from '../../iam/app-show-index';

let server: TestServer;
let dan: string;
let eve: string;
let dev: string;
const APP = 'global/app/showme';
const OBJECT = `${APP}/object/ticket/v1`;

async function putAsAdmin(key: string, value: unknown): Promise<void> {
  const r = await callCommand(
    'GET',
    server.url,
    'property.schema.put',
    { key, value: JSON.stringify(value), type: 'application/json' },
    server.adminAuth,
  );
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  await iam.roles.create({ name: 'CAN_SEE_TICKETS' });
  await iam.createUser({ username: 'dan', password: 'dan-pw', roles: ['ROLE_USER'] });
  await iam.createUser({ username: 'eve', password: 'eve-pw', roles: ['ROLE_USER', 'CAN_SEE_TICKETS'] });
  await iam.createUser({ username: 'dev', password: 'dev-pw', roles: ['ROLE_DEVELOPER'] });
  dan = server.basicAuth('dan', 'dan-pw');
  eve = server.basicAuth('eve', 'eve-pw');
  dev = server.basicAuth('dev', 'dev-pw');
  await putAsAdmin(`${APP}/config/app`, { title: 'Tickets', show: 'CAN_SEE_TICKETS' });
  await putAsAdmin(`${OBJECT}/schema`, { type: 'object', properties: { subject: { type: 'string' } } });
  await putAsAdmin(`${OBJECT}/instance/t1`, { subject: 'printer' });
  await putAsAdmin('global/app/open/config/app', { title: 'Open to all' });
});
afterAll(() => server?.close());

/** Polls until `check` holds: the index follows config/app through the event bus, asynchronously. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the condition never held');
}

describe.each<CommandForm>(['GET', 'pipeline'])('config/app show (%s)', (form) => {
  const call = (name: string, params: Record<string, unknown>, auth: string) =>
    callCommand(form, server.url, name, params, auth);
  const apps = async (auth: string) =>
    (await call('property.keys.children', { pattern: 'global/app' }, auth)).json as string[];

  it('leaves the app out of the listing for a user without the show role', async () => {
    expect(await apps(dan)).toEqual(['global/app/open/']);
  });

  it('refuses the app’s instances and its overview data to that user', async () => {
    const r = await call('property.object.instances', { object: OBJECT }, dan);
    expect([r.status, codeOf(r)]).toEqual([403, 'FORBIDDEN']);
    const keys = await call('property.keys', { pattern: `${APP}/**` }, dan);
    expect(keys.json).toEqual([]);
    const schema = await call('property.value.get', { key: `${OBJECT}/schema` }, dan);
    expect(schema.status).toBe(403);
  });

  it('shows the app to a holder of the role, a developer and an admin', async () => {
    for (const auth of [eve, dev, server.adminAuth]) {
      expect(await apps(auth)).toEqual(['global/app/open/', 'global/app/showme/']);
      const r = await call('property.object.instances', { object: OBJECT }, auth);
      expect(r.status, r.text).toBe(200);
      expect(r.json.total).toBe(1);
    }
  });
});

describe('a change of config/app', () => {
  it('takes effect at once for listings and instances, and back again', async () => {
    const instances = () =>
      callCommand('GET', server.url, 'property.object.instances', { object: OBJECT }, dan);
    await putAsAdmin(`${APP}/config/app`, { title: 'Tickets' });
    await eventually(async () => (await instances()).status === 200);
    await putAsAdmin(`${APP}/config/app`, { title: 'Tickets', show: ['CAN_SEE_TICKETS'] });
    await eventually(async () => (await instances()).status === 403);
  });

  it('a user cannot lift the guard: writing config/app of an app one cannot see is refused', async () => {
    const r = await callCommand(
      'GET',
      server.url,
      'property.schema.put',
      { key: `${APP}/config/app`, value: '{}', type: 'application/json' },
      dan,
    );
    expect([r.status, codeOf(r)]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('reading show', () => {
  it('takes a role, a comma-separated list or a list; anything else guards nothing', () => {
    expect(showRolesOf('{"show":"A"}')).toEqual(['A']);
    expect(showRolesOf('{"show":"A, B"}')).toEqual(['A', 'B']);
    expect(showRolesOf('{"show":["A",3,"B"]}')).toEqual(['A', 'B']);
    expect(showRolesOf('{"show":""}')).toBeUndefined();
    expect(showRolesOf('not json')).toBeUndefined();
    expect(showRolesOf(null)).toBeUndefined();
  });

  it('knows an app’s config key only', () => {
    expect(appOfConfigKey('global/app/x/config/app')).toBe('global/app/x');
    expect(appOfConfigKey('global/app/x/config/app/y')).toBeUndefined();
    expect(appOfConfigKey('global/app/x/config/other')).toBeUndefined();
  });
});
