// The property folder rules fed by real IAM identities: what a user listing `**` sees.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { EventBus } from '../events/event-bus';
import { PropertyAccess } from '../store/property-access';
import { PropertyService } from '../store/property-service';
import { SqlitePropertyStore } from '../store/sqlite/sqlite-property-store';
import { iamAppAccessRules } from './app-access-rules';
import { http } from '../testing/http-client';
import { basic, createTestIam, startIamTestServer } from './test-iam';

/** The property folder rules fed by real IAM identities: users, groups, tenants, admins, app roles. */
async function world() {
  const { iam, db } = await createTestIam();
  const properties = new PropertyService({
    store: new SqlitePropertyStore(db),
    events: new EventBus(),
    access: new PropertyAccess({ appRules: iamAppAccessRules(iam) }),
  });
  const sales = await iam.groups.create({ name: 'sales' });
  const ops = await iam.groups.create({ name: 'ops' });
  const acme = await iam.tenants.create('acme');
  const globex = await iam.tenants.create('globex');
  const ann = await iam.createUser({ username: 'ann', password: 'pw', groups: ['sales'], tenants: ['acme'] });
  const ben = await iam.createUser({ username: 'ben', password: 'pw', groups: ['ops'], tenants: ['globex'] });
  const admin = (await iam.principalByUsername('admin'))!;
  await iam.roles.create({ name: 'CAN_APP_SECRETAPP' });
  const keys = [
    'global/app/demo/config/app',
    'global/app/secretapp/config/app',
    `user/${ann.uuid}/notes`,
    `user/${ben.uuid}/notes`,
    `group/${sales.uuid}/pipeline/report`,
    `group/${ops.uuid}/pipeline/report`,
    `tenant/${acme.uuid}/app/crm/config/app`,
    `tenant/${globex.uuid}/app/crm/config/app`,
  ];
  for (const key of keys) await properties.create(admin, { key, value: 'x' });
  return { iam, properties, ann, ben, admin, sales, acme, keys };
}

const listed = async (properties: PropertyService, who: Principal) =>
  (await properties.list(who, '**')).map((p) => p.key);

describe('a user listing ** sees only what is theirs to see', () => {
  it('by user, group and tenant membership; guarded apps need their CAN_APP role', async () => {
    const { iam, properties, ann, sales, acme } = await world();
    expect(await listed(properties, ann)).toEqual(
      [
        'global/app/demo/config/app',
        `group/${sales.uuid}/pipeline/report`,
        `tenant/${acme.uuid}/app/crm/config/app`,
        `user/${ann.uuid}/notes`,
      ].sort(),
    );
    await iam.users.addRoles(ann.uuid, ['CAN_APP_SECRETAPP']);
    expect(await listed(properties, (await iam.principalByUuid(ann.uuid))!)).toContain(
      'global/app/secretapp/config/app',
    );
  });

  it('admins see everything', async () => {
    const { properties, admin, keys } = await world();
    expect(await listed(properties, admin)).toEqual([...keys].sort());
  });

  it('leaving a group hides its folder at once', async () => {
    const { iam, properties, ann, sales } = await world();
    await iam.groups.removeMember(sales.uuid, ann.uuid);
    expect(await listed(properties, (await iam.principalByUuid(ann.uuid))!)).not.toContain(
      `group/${sales.uuid}/pipeline/report`,
    );
  });

  it('a user cannot write into another user’s folder, nor into a reserved app', async () => {
    const { properties, ann, ben } = await world();
    await expect(properties.create(ann, { key: `user/${ben.uuid}/x`, value: 'y' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(properties.create(ann, { key: 'global/app/delivery/x', value: 'y' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(properties.create(ann, { key: `user/${ann.uuid}/x`, value: 'y' })).resolves.toBeDefined();
  });
});

describe('over HTTP: property.list with ** as each user', () => {
  it('returns only what the caller may read', async () => {
    const server = await startIamTestServer();
    try {
      const { iam } = server;
      const team = await iam.groups.create({ name: 'team' });
      const acme = await iam.tenants.create('acme');
      const ann = await iam.createUser({
        username: 'ann',
        password: 'ann-pw',
        groups: ['team'],
        tenants: ['acme'],
      });
      const ben = await iam.createUser({ username: 'ben', password: 'ben-pw' });
      const keys = [
        'global/app/demo/config/app',
        `user/${ann.uuid}/notes`,
        `user/${ben.uuid}/notes`,
        `group/${team.uuid}/report`,
        `tenant/${acme.uuid}/data`,
      ];
      for (const key of keys) {
        const r = await http(
          server.url,
          `/api/v3/command/property.schema.put?${new URLSearchParams({ key, value: 'x' })}`,
          {
            auth: server.adminAuth,
          },
        );
        expect(r.status, r.text).toBeLessThan(300);
      }
      const list = async (auth: string) => {
        const r = await http(server.url, '/api/v3/command/property.list?filter=**', { auth });
        expect(r.status, r.text).toBe(200);
        return (r.json as { key: string }[])
          .map((p) => p.key.replace(/^.*?(?=(global|user|group|tenant)\/)/, ''))
          .sort();
      };
      expect(await list(basic('ann', 'ann-pw'))).toEqual([keys[0], keys[3], keys[4], keys[1]].sort());
      expect(await list(basic('ben', 'ben-pw'))).toEqual([keys[0], keys[2]].sort());
      expect(await list(server.adminAuth)).toEqual(expect.arrayContaining(keys));
    } finally {
      await server.close();
    }
  });
});
