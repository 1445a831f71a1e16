// No iam.* command lets a non-admin hand out more than it has: roles, group and tenant memberships, admin accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../../iam/test-iam';

let server: IamTestServer;
let helperUuid = '';
const helper = basic('helper', 'helper-pw');

beforeAll(async () => {
  server = await startIamTestServer();
  const { iam } = server;
  await iam.roles.create({ name: 'ROLE_HELPDESK' });
  await iam.roles.addComposites('ROLE_HELPDESK', [
    'CAN_PIPE_iam.user.*',
    'CAN_PIPE_iam.group.*',
    'CAN_PIPE_iam.role.*',
  ]);
  await iam.groups.create({ name: 'admins', roleNames: ['ROLE_ADMIN'] });
  await iam.groups.create({ name: 'finance' });
  await iam.groups.create({ name: 'desk' });
  await iam.tenants.create('acme');
  helperUuid = (
    await iam.createUser({
      username: 'helper',
      password: 'helper-pw',
      roles: ['ROLE_HELPDESK'],
      groups: ['desk'],
    })
  ).uuid;
  await iam.createUser({ username: 'clerk', password: 'clerk-pw' });
  for (const name of ['admin', 'systemuser', 'clerk', 'helper'])
    uuids.set(name, (await iam.principalByUsername(name))!.uuid);
});
afterAll(() => server.close());

const command = (name: string, params: Record<string, string>, auth = helper) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth });
/** Uuids by username, read once all users exist (the table's parameters are built synchronously). */
const uuids = new Map<string, string>();
const uuidOf = (username: string) => uuids.get(username) ?? `unknown-${username}`;

describe('a non-admin with IAM rights', () => {
  it.each<[string, string, () => Record<string, string>]>([
    ['create a user with ROLE_ADMIN', 'iam.user.create', () => ({ name: 'm1', roleNames: 'ROLE_ADMIN' })],
    ['create a user in an admin group', 'iam.user.create', () => ({ name: 'm2', groupNames: 'admins' })],
    [
      'create a user in a group it is not in',
      'iam.user.create',
      () => ({ name: 'm3', groupNames: 'finance' }),
    ],
    [
      'grant itself ROLE_ADMIN',
      'iam.user.add.roles',
      () => ({ userUuid: helperUuid, roleNames: 'ROLE_ADMIN' }),
    ],
    [
      'grant ROLE_DEVELOPER it lacks',
      'iam.user.add.roles',
      () => ({ username: 'clerk', roleNames: 'ROLE_DEVELOPER' }),
    ],
    ['change an admin account', 'iam.user.add.roles', () => ({ username: 'admin', roleNames: 'ROLE_USER' })],
    ['join the admin group', 'iam.user.add.groups', () => ({ uuid: helperUuid, groupNames: 'admins' })],
    ['join a group it is not in', 'iam.user.add.groups', () => ({ uuid: helperUuid, groupNames: 'finance' })],
    [
      'move an admin into a group',
      'iam.user.add.groups',
      () => ({ uuid: uuidOf('admin'), groupNames: 'desk' }),
    ],
    ['join a tenant it is not in', 'iam.user.add.tenants', () => ({ uuid: helperUuid, tenantNames: 'acme' })],
    [
      'give its group ROLE_ADMIN',
      'iam.group.add.roles',
      () => ({ groupName: 'desk', roleNames: 'ROLE_ADMIN' }),
    ],
    ['create a group with ROLE_ADMIN', 'iam.group.create', () => ({ name: 'g1', roleNames: 'ROLE_ADMIN' })],
    [
      'create a role containing ROLE_ADMIN',
      'iam.role.create',
      () => ({ name: 'R1', composites: 'ROLE_ADMIN' }),
    ],
    [
      'make a role it holds a composite of ROLE_ADMIN',
      'iam.role.add.composites',
      () => ({ roleName: 'ROLE_HELPDESK', composites: 'ROLE_ADMIN' }),
    ],
    [
      'make ROLE_USER (which it holds) contain ROLE_DEVELOPER',
      'iam.role.add.composites',
      () => ({ roleName: 'ROLE_USER', composites: 'ROLE_DEVELOPER' }),
    ],
    [
      'make a role contain a permission it lacks',
      'iam.role.add.composites',
      () => ({ roleName: 'ROLE_HELPDESK', composites: 'CAN_RUN_AS_SOURCE' }),
    ],
    ['delete the admin', 'iam.user.delete', () => ({ uuid: uuidOf('admin') })],
    ['delete systemuser', 'iam.user.delete', () => ({ uuid: uuidOf('systemuser') })],
  ])('cannot %s (403)', async (_name, name, params) => {
    const r = await command(name, params());
    expect(r.status, r.text).toBe(403);
    expect(r.json.value.code).toBe('FORBIDDEN');
  });

  it('gained nothing from those attempts', async () => {
    const me = (await server.iam.principalByUuid(helperUuid))!;
    expect(me.roles.has('ROLE_ADMIN')).toBe(false);
    expect(me.roles.has('ROLE_DEVELOPER')).toBe(false);
    expect(me.roles.has('CAN_RUN_AS_SOURCE')).toBe(false);
    expect(me.groups.size).toBe(1);
    expect(me.tenants.size).toBe(0);
    expect((await server.iam.principalByUsername('clerk'))!.roles.has('ROLE_DEVELOPER')).toBe(false);
    expect((await server.iam.roles.expand(['ROLE_USER'])).has('ROLE_DEVELOPER')).toBe(false);
    for (const name of ['m1', 'm2', 'm3']) expect(await server.iam.principalByUsername(name)).toBeNull();
  });

  it('can share what it has: its own roles and its own group', async () => {
    expect(
      (await command('iam.user.add.roles', { username: 'clerk', roleNames: 'ROLE_HELPDESK' })).status,
    ).toBe(200);
    expect((await command('iam.user.add.groups', { uuid: uuidOf('clerk'), groupNames: 'desk' })).status).toBe(
      200,
    );
  });

  it('cannot escalate as a pipeline step either', async () => {
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: helper,
      type: 'application/yaml',
      body: `pipeline:\n  - log: start\n  - iam.user.add.roles:\n      userUuid: ${helperUuid}\n      roleNames: ROLE_ADMIN\n`,
    });
    expect(r.status).toBe(403);
    expect(r.json.value).toMatchObject({ code: 'FORBIDDEN', commandIndex: 1 });
  });
});

describe('user representations', () => {
  it('never carry a password hash (list and get)', async () => {
    for (const r of [
      await command('iam.user.list', {}, server.adminAuth),
      await command('iam.user.get', { username: 'helper' }, server.adminAuth),
      await command('iam.group.members', { name: 'desk' }, server.adminAuth),
      await command('iam.role.members', { roleName: 'ROLE_HELPDESK' }, server.adminAuth),
    ]) {
      expect(r.status).toBe(200);
      expect(r.text).not.toMatch(/argon2|password/i);
    }
  });
});
