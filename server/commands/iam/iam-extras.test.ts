// The IAM commands and parameters the real product's docs call beyond the basics: iam.group.list.names,
// iam.group.roles, iam.search and includeGroups / includeRoles on iam.user.list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../../iam/test-iam';

let server: IamTestServer;
beforeAll(async () => {
  server = await startIamTestServer();
  const setup = await run(
    'pipeline:\n' +
      '  - iam.group.create:\n      name: Accounting\n      roleNames: ROLE_DEVELOPER\n' +
      '  - iam.group.create:\n      name: Sales\n' +
      '  - iam.user.create:\n      name: hal\n      password: hal-password-1\n      groupNames: Accounting, Sales\n' +
      '  - iam.user.create:\n      name: ivy\n      password: ivy-password-1\n',
  );
  expect(setup.status, setup.text).toBe(200);
});
afterAll(() => server.close());

const run = (yaml: string, auth = server.adminAuth) =>
  http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });
const command = (name: string, params: Record<string, string> = {}, auth = server.adminAuth) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth });

describe('IAM extras', () => {
  it('iam.group.list.names lists names, filtered and paged', async () => {
    const all = await command('iam.group.list.names');
    expect(all.status, all.text).toBe(200);
    expect(all.json).toEqual(expect.arrayContaining(['Accounting', 'Sales']));
    expect(all.json.every((n: unknown) => typeof n === 'string')).toBe(true);
    expect((await command('iam.group.list.names', { filter: 'acc' })).json).toEqual(['Accounting']);
    expect((await command('iam.group.list.names', { filter: 's', max: '1' })).json).toHaveLength(1);
  });

  it('iam.group.roles lists the effective roles of a group, by name or uuid', async () => {
    const roles = await command('iam.group.roles', { groupName: 'Accounting' });
    expect(roles.status, roles.text).toBe(200);
    expect(roles.json).toEqual(
      expect.arrayContaining(['ROLE_DEVELOPER', 'ROLE_USER', 'CAN_PIPE_drive.save']),
    );
    expect((await command('iam.group.roles', { groupName: 'Sales' })).json).toEqual([]);
    const missing = await command('iam.group.roles', { groupName: 'Nobody' });
    expect(missing.status).toBe(404);
  });

  it('iam.user.list includes groups and roles when asked, and only then', async () => {
    const plain = (await command('iam.user.list', { filter: 'hal' })).json;
    expect(plain[0]).not.toHaveProperty('groups');
    const full = await command('iam.user.list', {
      filter: 'hal',
      includeGroups: 'true',
      includeRoles: 'true',
    });
    expect(full.status, full.text).toBe(200);
    expect(full.json[0].groups.sort()).toEqual(['/Accounting', '/Sales']);
    expect(full.json[0].realmRoles).toEqual(expect.arrayContaining(['ROLE_USER', 'ROLE_DEVELOPER']));
  });

  it('iam.search finds users, groups, roles and the realm', async () => {
    const users = (await command('iam.search', { type: 'USER', filter: 'hal' })).json;
    expect(users.map((u: { username: string }) => u.username)).toEqual(['hal']);
    const groups = (await command('iam.search', { type: 'GROUP', filter: 'sal' })).json;
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['Sales']);
    const roles = (await command('iam.search', { type: 'ROLE', filter: 'ROLE_ADMIN' })).json;
    expect(roles.map((r: { name: string }) => r.name)).toContain('ROLE_ADMIN');
    const realm = (await command('iam.search', { type: 'REALM' })).json;
    expect(realm).toEqual([expect.objectContaining({ realm: expect.any(String), enabled: true })]);
    const bad = await command('iam.search', { type: 'CLIENT' });
    expect(bad.status).toBe(400);
  });

  it('a plain user may not search the IAM', async () => {
    const denied = await command('iam.search', { type: 'USER' }, basic('ivy', 'ivy-password-1'));
    expect(denied.status).toBe(403);
  });
});
