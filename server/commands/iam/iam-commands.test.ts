// The iam.* commands over HTTP, including the refusals that keep callers within their rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../../iam/test-iam';

let server: IamTestServer;
beforeAll(async () => {
  server = await startIamTestServer();
});
afterAll(() => server.close());

const run = (yaml: string, auth = server.adminAuth) =>
  http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });
const command = (name: string, params: Record<string, string> = {}, auth = server.adminAuth) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth });

describe('iam.* commands', () => {
  it('create a user with groups and roles, then read it back every way', async () => {
    await run(
      'pipeline:\n  - iam.role.create:\n      name: ROLE_AUDITOR\n      composites: "CAN_PIPE_iam.user.list, CAN_PIPE_iam.user.get"\n',
    );
    const group = (await command('iam.group.create', { name: 'auditors', roleNames: 'ROLE_AUDITOR' })).json;
    expect(group.groupUuid).toMatch(/^[0-9a-f-]{36}$/);
    const created = await run(
      'pipeline:\n  - iam.user.create:\n      name: gil\n      email: gil@example.com\n      firstName: Gil\n      lastName: Grey\n      password: gil-pw\n      groupNames: auditors\n',
    );
    expect(created.status).toBe(200);
    const uuid = created.json.userUuid as string;

    expect((await command('iam.user.get', { username: 'gil' })).json).toMatchObject({
      id: uuid,
      username: 'gil',
      email: 'gil@example.com',
      firstName: 'Gil',
      enabled: true,
    });
    expect((await command('iam.user.get', { uuid })).json.username).toBe('gil');
    expect((await command('iam.user.groups', { username: 'gil' })).json).toEqual([
      expect.objectContaining({ id: group.groupUuid, name: 'auditors', path: '/auditors' }),
    ]);
    expect((await command('iam.user.roles', { uuid })).json).toEqual(
      expect.arrayContaining(['ROLE_AUDITOR', 'ROLE_USER', 'CAN_PIPE_iam.user.list']),
    );
    expect(
      (await command('iam.group.members', { name: 'auditors' })).json.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['gil']);
    expect(
      (await command('iam.role.members', { roleName: 'ROLE_AUDITOR' })).json.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['gil']);
    expect((await command('iam.user.list', { filter: 'gil' }, basic('gil', 'gil-pw'))).json).toHaveLength(1);
    expect((await command('iam.group.list', { filter: 'audit' })).json).toHaveLength(1);
    expect(Object.keys((await command('iam.group.list', { sortByName: 'true' })).json)).toContain('auditors');
  });

  it('add roles and groups to existing users; lists as comma text or as expressions', async () => {
    const hal = (await command('iam.user.create', { name: 'hal', email: 'hal@example.com' })).json;
    await command('iam.group.create', { name: 'crew' });
    const added = await run(
      `vars:\n  roles: ["ROLE_DEVELOPER"]\npipeline:\n  - iam.user.add.roles:\n      username: hal\n      roleNames: "#{vars.roles}"\n  - iam.user.add.groups:\n      uuid: ${hal.userUuid}\n      groupNames: crew\n`,
    );
    expect(added.status).toBe(200);
    expect((await server.iam.principalByUsername('hal'))!.roles.has('ROLE_DEVELOPER')).toBe(true);
    expect((await server.iam.principalByUsername('hal'))!.groups.size).toBe(1);
    const group = (await server.iam.groups.byName('crew'))!;
    await command('iam.group.add.roles', { groupName: 'crew', roleNames: 'CAN_APP_CREW' }).then((r) =>
      expect(r.status).toBe(404),
    );
    await command('iam.role.create', { name: 'CAN_APP_CREW' });
    expect(
      (await command('iam.group.add.roles', { groupUuid: group.uuid, roleNames: 'CAN_APP_CREW' })).json,
    ).toEqual(['CAN_APP_CREW']);
    expect((await server.iam.principalByUsername('hal'))!.roles.has('CAN_APP_CREW')).toBe(true);
    expect((await command('iam.group.delete', { uuid: group.uuid })).status).toBe(200);
    expect((await server.iam.principalByUsername('hal'))!.roles.has('CAN_APP_CREW')).toBe(false);
  });

  it.each([
    ['an existing user', 'iam.user.create', { name: 'admin' }, 409, 'CONFLICT'],
    ['an existing role', 'iam.role.create', { name: 'ROLE_ADMIN' }, 409, 'CONFLICT'],
    ['an invalid username', 'iam.user.create', { name: 'a b' }, 400, 'PARAM_INVALID'],
    [
      'a missing role',
      'iam.user.add.roles',
      { username: 'admin', roleNames: 'NO_SUCH_ROLE' },
      404,
      'NOT_FOUND',
    ],
    ['an unknown user', 'iam.user.get', { username: 'nobody' }, 404, 'NOT_FOUND'],
    ['no user reference', 'iam.user.get', {}, 400, 'PARAM_INVALID'],
    ['a missing parameter', 'iam.role.add.composites', { roleName: 'X' }, 400, 'PARAM_INVALID'],
    ['deleting systemuser', 'iam.user.delete', { uuid: 'SYSTEM' }, 403, 'FORBIDDEN'],
  ])('refuse %s', async (_name, name, params, status, code) => {
    const p: Record<string, string> = { ...params };
    if (p.uuid === 'SYSTEM') p.uuid = (await server.iam.principalByUsername('systemuser'))!.uuid;
    const r = await command(name, p);
    expect(r.status).toBe(status);
    expect(r.json.value.code).toBe(code);
  });

  it('never let a caller grant more than it holds', async () => {
    await server.iam.roles.create({ name: 'ROLE_HELPDESK' });
    await server.iam.roles.addComposites('ROLE_HELPDESK', [
      'CAN_PIPE_iam.user.add.roles',
      'CAN_PIPE_iam.role.add.composites',
      'CAN_PIPE_iam.user.create',
      'CAN_PIPE_iam.user.delete',
    ]);
    const helper = await server.iam.createUser({
      username: 'helper',
      password: 'helper-pw',
      roles: ['ROLE_HELPDESK'],
    });
    const auth = basic('helper', 'helper-pw');
    for (const [name, params] of [
      ['iam.user.add.roles', { userUuid: helper.uuid, roleNames: 'ROLE_ADMIN' }],
      ['iam.user.add.roles', { userUuid: helper.uuid, roleNames: 'ROLE_DEVELOPER' }],
      ['iam.role.add.composites', { roleName: 'ROLE_HELPDESK', composites: 'ROLE_ADMIN' }],
      ['iam.user.create', { name: 'minion', roleNames: 'ROLE_ADMIN' }],
      ['iam.user.delete', { uuid: (await server.iam.principalByUsername('admin'))!.uuid }],
    ] as const) {
      const r = await command(name, params, auth);
      expect(r.status, name).toBe(403);
      expect(r.json.value.code).toBe('FORBIDDEN');
    }
    expect((await server.iam.principalByUsername('helper'))!.roles.has('ROLE_ADMIN')).toBe(false);
    expect(await server.iam.principalByUsername('minion')).toBeNull();
    // Granting what it holds itself is fine.
    expect(
      (await command('iam.user.create', { name: 'minion', roleNames: 'ROLE_HELPDESK' }, auth)).status,
    ).toBe(200);
  });

  it('tenants: create, join, list', async () => {
    const tenant = (await command('iam.tenant.create', { name: 'initech' })).json;
    const ivy = (await command('iam.user.create', { name: 'ivy' })).json;
    expect(
      (await command('iam.user.add.tenants', { uuid: ivy.userUuid, tenantNames: 'initech' })).json,
    ).toEqual([tenant.tenantUuid]);
    expect([...(await server.iam.principalByUsername('ivy'))!.tenants]).toEqual([tenant.tenantUuid]);
    expect((await command('iam.tenant.list')).json).toEqual([{ id: tenant.tenantUuid, name: 'initech' }]);
  });

  it('iam.token and iam.token.refresh give Keycloak token responses; refresh sets the headers', async () => {
    await server.iam.createUser({ username: 'jo', password: 'jo-pw' });
    const tokens = await run(
      'pipeline:\n  - iam.token:\n      username: jo\n      password: jo-pw\n',
      basic('jo', 'jo-pw'),
    );
    expect(tokens.json).toMatchObject({ token_type: 'Bearer' });
    const refreshed = await run(
      `pipeline:\n  - iam.token.refresh:\n      refreshToken: ${tokens.json.refresh_token}\n  - set: "#{headers.accessToken != null and headers.refreshToken == body.refresh_token}"\n`,
      basic('jo', 'jo-pw'),
    );
    expect(refreshed.json).toBe(true);
    const wrong = await run(
      'pipeline:\n  - iam.token:\n      username: jo\n      password: nope\n',
      basic('jo', 'jo-pw'),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.json.value.code).toBe('UNAUTHENTICATED');
  });

  it('@user describes the caller', async () => {
    await server.iam.createUser({
      username: 'kim',
      password: 'kim-pw',
      email: 'kim@example.com',
      firstName: 'Kim',
      lastName: 'Lee',
    });
    const r = await run(
      "pipeline:\n  - set: \"#{@user.emailAndDisplayName() + '|' + @user.hasRole('ROLE_USER') + '|' + @user.isAdmin()}\"\n",
      basic('kim', 'kim-pw'),
    );
    expect(r.text).toBe('Kim Lee <kim@example.com>|true|false');
  });
});
