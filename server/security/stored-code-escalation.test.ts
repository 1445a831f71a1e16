/**
 * Issue 18, finding 1: four ways a plain user once became admin through stored code that ran with someone
 * else's rights, each tried against the real server. Who code runs as is decided when it is stored by someone
 * allowed to, never inherited through data (docs/security.md, "Who code runs as").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_ADMIN } from '../../shared/auth';
import { codeOf } from '../testing/command-forms';
import { eventually } from '../testing/eventually';
import { http, type HttpResponse } from '../testing/http-client';
import { basicAuth, startTestServer, type TestServer } from '../testing/test-server';

const PASSWORD = 'mallory-password-1';
let server: TestServer;
/** Each scenario has its own attacker (holding the role of the app `tools`), so one's success cannot hide another's. */
let attacker: string;
let mallory: string;
let malloryUuid: string;

async function newAttacker(username: string): Promise<void> {
  const user = await server.services.iam.createUser({
    username,
    password: PASSWORD,
    roles: ['CAN_APP_TOOLS'],
  });
  attacker = username;
  malloryUuid = user.uuid;
  mallory = basicAuth(username, PASSWORD);
}

/** Runs one command as a one-step JSON pipeline (values are never evaluated: `evalValue: false` where it applies). */
function command(name: string, params: Record<string, unknown>, auth: string): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ [name]: params }] }),
  });
}

function store(key: string, value: string, auth: string): Promise<HttpResponse> {
  return command('property.schema.put', { key, value, type: 'application/yaml', evalValue: false }, auth);
}

/** The code an attacker plants: it makes mallory an admin, then leaves a mark that it got that far. */
function grab(mark: string, listenTo?: string): string {
  const listen = listenTo
    ? `  - event.listen:\n      key: property.created\n      filter: "#{body.target.key == '${listenTo}'}"\n`
    : '';
  return (
    `pipeline:\n${listen}` +
    `  - iam.user.add.roles:\n      username: ${attacker}\n      roleNames: ROLE_ADMIN\n` +
    `  - property.schema.put:\n      key: ${mark}\n      value: got admin\n`
  );
}

async function malloryIsAdmin(): Promise<boolean> {
  await server.services.events.idle();
  const principal = await server.services.iam.principalByUuid(malloryUuid);
  return principal!.roles.has(ROLE_ADMIN);
}

async function exists(key: string): Promise<boolean> {
  return (await command('property.exists', { key }, server.adminAuth)).json === true;
}

async function trigger(key: string): Promise<void> {
  expect((await command('property.schema.put', { key, value: 'go' }, mallory)).status).toBe(200);
  await server.services.events.idle();
}

beforeAll(async () => {
  server = await startTestServer();
  await server.services.iam.roles.create({ name: 'CAN_APP_TOOLS' });
  await server.services.propertyJobs.ready;
});
afterAll(() => server.close());

describe('stored code never runs with rights inherited through data', () => {
  it('(a) a value an admin’s listener copied into an archive, moved by the user into a pipeline folder, runs as the user', async () => {
    await newAttacker('mallory-a');
    const archiver =
      'pipeline:\n  - event.listen:\n      key: property.created\n' +
      '      filter: "#{body.target.key == \'global/inbox/a\'}"\n' +
      '  - property.copy:\n      key: global/inbox/a\n      to: global/archive/a\n';
    expect((await store('global/app/archive/pipeline/archiver', archiver, server.adminAuth)).status).toBe(
      200,
    );
    expect((await store('global/inbox/a', grab('global/proof/a', 'global/go/a'), mallory)).status).toBe(200);
    await eventually(async () => ((await exists('global/archive/a')) ? true : undefined));
    const intoApp = await command(
      'property.move',
      { key: 'global/archive/a', to: 'global/app/archive/pipeline/a' },
      mallory,
    );
    const intoOwn = await command(
      'property.move',
      { key: 'global/archive/a', to: `user/${malloryUuid}/app/mine/pipeline/a` },
      mallory,
    );
    await trigger('global/go/a');
    expect(await malloryIsAdmin()).toBe(false);
    expect(await exists('global/proof/a')).toBe(false);
    // A plain user stores no code in a shared app; in her own folder it is hers, and runs as her.
    expect([intoApp.status, codeOf(intoApp)]).toEqual([403, 'FORBIDDEN']);
    expect(intoOwn.status).toBe(200);
    const moved = `user/${malloryUuid}/app/mine/pipeline/a`;
    expect(await server.services.properties.store.authorOf(moved)).toBe(malloryUuid);
  });

  it('(b) property.copy by an admin makes the admin the author only until the user changes the copy in any way', async () => {
    await newAttacker('mallory-b');
    expect((await store('global/drafts/b', grab('global/proof/b', 'global/go/b'), mallory)).status).toBe(200);
    expect(
      (await command('property.copy', { key: 'global/drafts/b', to: 'global/shared/b' }, server.adminAuth))
        .status,
    ).toBe(200);
    const admin = (await server.services.iam.principalByUsername('admin'))!;
    expect(await server.services.properties.store.authorOf('global/shared/b')).toBe(admin.uuid);
    // The user changes the type only (the value stays what the admin copied), then moves it into her app.
    const retype = await command(
      'property.schema.put',
      { key: 'global/shared/b', type: 'application/yaml;type=pipeline' },
      mallory,
    );
    expect(retype.status).toBe(200);
    const move = await command(
      'property.move',
      { key: 'global/shared/b', to: `user/${malloryUuid}/app/mine/pipeline/b` },
      mallory,
    );
    expect(move.status).toBe(200);
    await trigger('global/go/b');
    expect(await malloryIsAdmin()).toBe(false);
    expect(await exists('global/proof/b')).toBe(false);
    expect(await server.services.properties.store.authorOf(`user/${malloryUuid}/app/mine/pipeline/b`)).toBe(
      malloryUuid,
    );
  });

  it('(c) a helper the user can edit, started by an admin’s listener (pipeline.start) or call, runs with no more than the user’s rights', async () => {
    await newAttacker('mallory-c');
    // An app with its own role: its holders may store code there, and that code never runs as anyone stronger.
    expect((await store('global/app/tools/pipeline/helper', grab('global/proof/c'), mallory)).status).toBe(
      200,
    );
    const listener =
      'pipeline:\n  - event.listen:\n      key: property.created\n' +
      '      filter: "#{body.target.key == \'global/go/c\'}"\n' +
      '  - pipeline.start:\n      key: global/app/tools/pipeline/helper\n';
    expect((await store('global/app/tools/pipeline/listener', listener, server.adminAuth)).status).toBe(200);
    await trigger('global/go/c');
    expect(await malloryIsAdmin()).toBe(false);
    expect(await exists('global/proof/c')).toBe(false);
    // The same helper called by the admin directly is refused the user's missing rights, with a clear error.
    const called = await command(
      'call',
      { uri: 'property:global/app/tools/pipeline/helper' },
      server.adminAuth,
    );
    expect([called.status, codeOf(called)]).toEqual([403, 'FORBIDDEN']);
    expect(await malloryIsAdmin()).toBe(false);
    // Without the app's role a plain user stores no helper in a shared app at all.
    await server.services.iam.createUser({ username: 'eve', password: PASSWORD });
    const shared = await store(
      'global/app/shared/pipeline/helper',
      grab('global/proof/c2'),
      basicAuth('eve', PASSWORD),
    );
    expect([shared.status, codeOf(shared)]).toEqual([403, 'FORBIDDEN']);
  });

  it('(c) the same holds for a helper an admin runs over HTTP by its key or uuid, also once the admin ran it before', async () => {
    await newAttacker('mallory-e');
    const key = 'global/app/tools/pipeline/http-helper';
    const harmless = 'pipeline:\n  - set.body: hello\n';
    expect((await store(key, harmless, server.adminAuth)).status).toBe(200);
    // The admin's own pipeline runs as the admin (and is now parsed and kept for the next call).
    const own = await http(server.url, `/api/v3/pipeline:${key}`, { method: 'POST', auth: server.adminAuth });
    expect([own.status, own.text]).toEqual([200, 'hello']);
    // The app role holder rewrites it; the admin's next call must not run it with the admin's rights.
    expect((await store(key, grab('global/proof/e'), mallory)).status).toBe(200);
    const uuid = (await command('property.get', { key }, server.adminAuth)).json.uuid as string;
    for (const reference of [key, `uuid:${uuid}`]) {
      const run = await http(server.url, `/api/v3/pipeline:${reference}`, {
        method: 'POST',
        auth: server.adminAuth,
      });
      expect([run.status, codeOf(run)]).toEqual([403, 'FORBIDDEN']);
    }
    // Re-running the admin's earlier run takes the stored text as it is now: bound by its new author too.
    const { runs } = (await http(server.url, '/api/v3/runs?limit=100', { auth: server.adminAuth })).json as {
      runs: { id: string; pipelineKey: string | null }[];
    };
    const earlier = runs.find((r) => r.pipelineKey === key)!;
    const rerun = await http(server.url, `/api/v3/runs/${earlier.id}/rerun`, {
      method: 'POST',
      auth: server.adminAuth,
    });
    expect([rerun.status, codeOf(rerun)]).toEqual([403, 'FORBIDDEN']);
    expect(await malloryIsAdmin()).toBe(false);
    expect(await exists('global/proof/e')).toBe(false);
  });

  it('(c) the same holds for a stored script run by script.run: it reads no more than its author may', async () => {
    await newAttacker('mallory-s');
    const admin = (await server.services.iam.principalByUsername('admin'))!;
    await server.services.properties.create(admin, { key: `user/${admin.uuid}/secret`, value: 's3cret' });
    const script = `function command(pi) { return { seen: pi.property.get('user/${admin.uuid}/secret') }; }`;
    const key = `user/${malloryUuid}/app/mine/script/peek.js`;
    const stored = await command(
      'property.schema.put',
      { key, value: script, type: 'application/javascript', evalValue: false },
      mallory,
    );
    expect(stored.status).toBe(200);
    const ran = await command('script.run', { path: key }, server.adminAuth);
    expect(ran.status, ran.text).toBe(200);
    expect(ran.json).toEqual({ seen: null });
    // The admin's own inline script reads it: the binding is by the stored code's author, not by script.run.
    const inline = await command('script.run', { script }, server.adminAuth);
    expect(inline.json).toEqual({ seen: 's3cret' });
  });

  it('(d) a test the user stored, run by an admin with test.run and no pattern, gets neither admin rights nor its own testWrites', async () => {
    await newAttacker('mallory-d');
    const test = `headers:\n  testWrites: "global/**, user/**"\n${grab('global/proof/d')}`;
    expect((await store('global/app/tools/test/evil', test, mallory)).status).toBe(200);
    const widen = `headers:\n  testWrites: "global/**"\npipeline:\n  - property.schema.put:\n      key: global/owned/d\n      value: x\n`;
    expect((await store('global/app/tools/test/widen', widen, mallory)).status).toBe(200);
    const response = await http(server.url, '/api/v3/command/test.run', { auth: server.adminAuth });
    expect(response.status, response.text).toBe(200);
    const report = response.json as { tests: { key: string; result: string; message?: string }[] };
    const byKey = Object.fromEntries(report.tests.map((t) => [t.key, t]));
    expect(await malloryIsAdmin()).toBe(false);
    expect(await exists('global/proof/d')).toBe(false);
    expect(await exists('global/owned/d')).toBe(false);
    expect(byKey['global/app/tools/test/evil']).toMatchObject({ result: 'error' });
    expect(byKey['global/app/tools/test/evil']!.message).toMatch(/^FORBIDDEN/);
    expect(byKey['global/app/tools/test/widen']!.message).toMatch(
      /^FORBIDDEN: A test may change properties only/,
    );
  });
});
