// RunAs (header and iam.run.as) and the per-command permission check, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../iam/test-iam';

let server: IamTestServer;
const runner = basic('runner', 'runner-pw'); // holds CAN_RUN_AS_SOURCE, not admin
const plain = basic('plain', 'plain-pw'); // ROLE_USER only

beforeAll(async () => {
  server = await startIamTestServer();
  await server.iam.roles.create({ name: 'ROLE_RUNNER' });
  await server.iam.roles.addComposites('ROLE_RUNNER', ['CAN_RUN_AS_SOURCE', 'CAN_PIPE_iam.run.as']);
  await server.iam.createUser({ username: 'runner', password: 'runner-pw', roles: ['ROLE_RUNNER'] });
  await server.iam.createUser({ username: 'plain', password: 'plain-pw' });
  await server.iam.createUser({ username: 'target', password: 'target-pw', email: 't@example.com' });
  await server.iam.createUser({ username: 'boss', password: 'boss-pw', roles: ['ROLE_ADMIN'] });
});
afterAll(() => server.close());

/** Runs a pipeline that answers "<username>/<actingUsername>". */
const whoAmI = (auth: string, before: unknown[] = []) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({
      pipeline: [...before, { set: { value: "#{@user.username() + '/' + @user.actingUsername()}" } }],
    }),
  });

describe('RunAs header', () => {
  it('switches an authenticated caller who holds CAN_RUN_AS_SOURCE', async () => {
    const r = await whoAmI(`${runner}, RunAs target`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('target/runner');
    expect((await whoAmI(`${basic('admin', 'admin-test-password')}, runas boss`)).text).toBe('boss/admin');
    expect((await whoAmI(`${basic('admin', 'admin-test-password')}, RunAs systemuser`)).text).toBe(
      'systemuser/admin',
    );
  });

  it('follows Bearer and Refresh credentials too', async () => {
    const tokens = (
      await http(server.url, '/auth/realms/pipework/protocol/openid-connect/token', {
        type: 'application/x-www-form-urlencoded',
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'cli',
          username: 'runner',
          password: 'runner-pw',
        }).toString(),
      })
    ).json;
    expect((await whoAmI(`Bearer ${tokens.access_token}, RunAs target`)).text).toBe('target/runner');
    expect((await whoAmI(`Refresh ${tokens.refresh_token}, RunAs target`)).text).toBe('target/runner');
    expect((await whoAmI(`Bearer ${tokens.access_token}, RunAs boss`)).status).toBe(403);
  });

  it.each([
    ['without CAN_RUN_AS_SOURCE', () => `${plain}, RunAs target`, 403, 'FORBIDDEN'],
    ['to an admin (escalation)', () => `${runner}, RunAs boss`, 403, 'FORBIDDEN'],
    ['to systemuser (escalation)', () => `${runner}, RunAs systemuser`, 403, 'FORBIDDEN'],
    ['to an unknown user', () => `${runner}, RunAs nobody`, 403, 'FORBIDDEN'],
    ['nested', () => `${runner}, RunAs target, RunAs plain`, 403, 'FORBIDDEN'],
    ['nested, lower case', () => `${runner}, runas target, RUNAS plain`, 403, 'FORBIDDEN'],
    ['after bad credentials', () => `${basic('runner', 'wrong')}, RunAs target`, 401, 'UNAUTHENTICATED'],
  ])('refuses a switch %s', async (_name, auth, status, code) => {
    const r = await whoAmI(auth());
    expect(r.status).toBe(status);
    expect(r.json.value.code).toBe(code);
  });
});

describe('iam.run.as in a pipeline', () => {
  it('switches for the following steps', async () => {
    const r = await whoAmI(runner, [{ 'iam.run.as': { username: 'target' } }]);
    expect(r.text).toBe('target/runner');
  });

  it('applies to the following steps only: earlier steps and the vars section ran as the caller', async () => {
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: runner,
      type: 'application/json',
      body: JSON.stringify({
        vars: { atStart: '#{@user.username()}' },
        pipeline: [
          { set: { value: '#{@user.username()}', output: 'vars.before' } },
          { 'iam.run.as': 'target' },
          { set: { value: "#{vars.atStart + ',' + vars.before + ',' + @user.username()}" } },
        ],
      }),
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('runner,runner,target');
  });

  it('leaves the switched identity without the caller’s extra rights', async () => {
    const r = await whoAmI(runner, [{ 'iam.run.as': 'target' }, { 'iam.run.as': 'plain' }]);
    expect(r.status).toBe(403);
    const as = await http(server.url, '/api/v3/pipeline', {
      auth: runner,
      type: 'application/json',
      body: JSON.stringify({
        pipeline: [{ 'iam.run.as': 'target' }, { set: "#{@user.hasPermission('CAN_RUN_AS_SOURCE')}" }],
      }),
    });
    expect(as.json).toBe(false);
  });

  it.each([
    ['without the right', () => plain, 'target'],
    ['to systemuser (escalation)', () => runner, 'systemuser'],
    ['to admin (escalation)', () => runner, 'admin'],
    ['to an admin', () => runner, 'boss'],
    ['nested after a RunAs header', () => `${runner}, RunAs target`, 'plain'],
  ])('refuses %s', async (_name, auth, username) => {
    const r = await whoAmI(auth(), [{ 'iam.run.as': { username } }]);
    expect(r.status).toBe(403);
    expect(r.json.value.code).toBe('FORBIDDEN');
  });

  it('cannot be nested inside one pipeline', async () => {
    const r = await whoAmI(basic('admin', 'admin-test-password'), [
      { 'iam.run.as': { username: 'runner' } },
      { 'iam.run.as': { username: 'target' } },
    ]);
    expect(r.status).toBe(403);
    expect(r.json.value).toMatchObject({ code: 'FORBIDDEN', commandIndex: 1 });
  });
});

describe('command permissions', () => {
  it('refuse a command without its permission, called directly', async () => {
    const r = await http(server.url, '/api/v3/command/iam.user.list', { auth: plain });
    expect(r.status).toBe(403);
    expect(r.json.value).toMatchObject({ code: 'FORBIDDEN', permission: 'CAN_PIPE_iam.user.list' });
  });

  it('refuse a command without its permission, as a pipeline step', async () => {
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: plain,
      type: 'application/yaml',
      body: 'pipeline:\n  - log: hello\n  - iam.user.create:\n      name: sneaky\n',
    });
    expect(r.status).toBe(403);
    expect(r.json.value).toMatchObject({
      code: 'FORBIDDEN',
      commandName: 'iam.user.create',
      commandIndex: 1,
    });
    expect(await server.iam.principalByUsername('sneaky')).toBeNull();
  });

  it('follow the identity a RunAs switched to, step by step', async () => {
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: basic('admin', 'admin-test-password'),
      type: 'application/yaml',
      body: 'pipeline:\n  - iam.run.as: plain\n  - iam.user.list\n',
    });
    expect(r.status).toBe(403);
    expect(r.json.value).toMatchObject({ code: 'FORBIDDEN', commandIndex: 1 });
  });

  it('accept a trailing * grant', async () => {
    await server.iam.roles.create({ name: 'ROLE_IAM_READER' });
    await server.iam.roles.addComposites('ROLE_IAM_READER', ['CAN_PIPE_iam.user.*']);
    await server.iam.createUser({ username: 'reader', password: 'reader-pw', roles: ['ROLE_IAM_READER'] });
    const r = await http(server.url, '/api/v3/command/iam.user.list?filter=target', {
      auth: basic('reader', 'reader-pw'),
    });
    expect(r.status).toBe(200);
    expect(r.json.map((u: { username: string }) => u.username)).toEqual(['target']);
  });
});
