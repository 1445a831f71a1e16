// The IAM service on its own: first start, principals with composites, Basic credentials and their cache.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_ADMIN, ROLE_DEVELOPER, ROLE_USER, hasPermission } from '../../shared/auth';
import { openDatabase } from '../db';
import { INITIAL_ADMIN_PASSWORD_FILE } from './bootstrap';
import { TEST_HASH_COST, createPasswordHasher } from './password-hasher';
import { TEST_ADMIN_PASSWORD, basic, createTestIam } from './test-iam';

describe('createIamService: first start', () => {
  it('creates admin with the configured password, systemuser, built-in roles and clients', async () => {
    const { iam } = await createTestIam();
    const admin = (await iam.principalByUsername('admin'))!;
    expect(admin.roles.has(ROLE_ADMIN)).toBe(true);
    expect(admin.roles.has(ROLE_DEVELOPER)).toBe(true); // composite of ROLE_ADMIN
    const system = (await iam.principalByUsername('systemuser'))!;
    expect(system.roles.has(ROLE_ADMIN)).toBe(true);
    await expect(
      iam.authenticator.authenticate({ authorization: basic('admin', TEST_ADMIN_PASSWORD) }),
    ).resolves.toMatchObject({
      username: 'admin',
    });
    expect((await iam.clients.list()).map((c) => c.clientId)).toEqual(['cli', 'workbench']);
  });

  it('generates a random admin password, announces it once and writes it with mode 0600', async () => {
    const lines: string[] = [];
    const db = openDatabase(':memory:');
    const { iam, config } = await createTestIam({
      db,
      config: { adminPassword: undefined },
      announce: (l) => lines.push(l),
    });
    const file = join(config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
    const password = readFileSync(file, 'utf8').trim();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(password);
    await expect(iam.verifyPassword('admin', password)).resolves.toMatchObject({ username: 'admin' });
    // A restart on the same database neither creates nor announces again.
    await createTestIam({
      db,
      config: { adminPassword: undefined, dataDir: config.dataDir },
      announce: (l) => lines.push(l),
    });
    expect(lines).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  });

  it('systemuser cannot log in', async () => {
    const { iam } = await createTestIam();
    await expect(iam.verifyPassword('systemuser', '')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('principals', () => {
  it('expand composites, groups and tenants', async () => {
    const { iam } = await createTestIam();
    await iam.roles.create({ name: 'ROLE_EDITOR' });
    await iam.roles.addComposites('ROLE_EDITOR', ['CAN_PIPE_property.*']);
    const group = await iam.groups.create({ name: 'editors', roleNames: ['ROLE_EDITOR'] });
    const tenant = await iam.tenants.create('acme');
    const alice = await iam.createUser({
      username: 'alice',
      password: 'pw',
      groups: ['editors'],
      tenants: ['acme'],
    });
    expect(alice.roles.has(ROLE_USER)).toBe(true);
    expect(alice.roles.has('ROLE_EDITOR')).toBe(true);
    expect(hasPermission(alice, 'CAN_PIPE_property.put')).toBe(true);
    expect(hasPermission(alice, 'CAN_PIPE_iam.user.create')).toBe(false);
    expect([...alice.groups]).toEqual([group.uuid]);
    expect([...alice.tenants]).toEqual([tenant.uuid]);
    // Changes reach cached principals.
    await iam.roles.addComposites('ROLE_EDITOR', ['CAN_PIPE_mail.send']);
    expect(hasPermission((await iam.principalByUuid(alice.uuid))!, 'CAN_PIPE_mail.send')).toBe(true);
  });

  it('survive composite cycles', async () => {
    const { iam } = await createTestIam();
    await iam.roles.create({ name: 'A' });
    await iam.roles.create({ name: 'B' });
    await iam.roles.addComposites('A', ['B']);
    await iam.roles.addComposites('B', ['A']);
    const bob = await iam.createUser({ username: 'bob', password: 'pw', roles: ['A'] });
    expect([...bob.roles].sort()).toEqual(expect.arrayContaining(['A', 'B', ROLE_USER]));
  });

  it('unknown and deleted users resolve to null', async () => {
    const { iam } = await createTestIam();
    const carol = await iam.createUser({ username: 'carol', password: 'pw' });
    expect(await iam.principalByUsername('nobody')).toBeNull();
    await iam.deleteUser(carol.uuid);
    expect(await iam.principalByUuid(carol.uuid)).toBeNull();
    await expect(iam.deleteUser((await iam.principalByUsername('systemuser'))!.uuid)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});

describe('Basic credentials and the credential cache', () => {
  it('caches a verified password and forgets it on password change and delete', async () => {
    const { iam } = await createTestIam();
    const dave = await iam.createUser({ username: 'dave', password: 'old' });
    await iam.verifyPassword('dave', 'old');
    await iam.verifyPassword('dave', 'old');
    await iam.setPassword(dave.uuid, 'new');
    await expect(iam.verifyPassword('dave', 'old')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(iam.verifyPassword('dave', 'new')).resolves.toMatchObject({ uuid: dave.uuid });
    await iam.deleteUser(dave.uuid);
    await expect(iam.verifyPassword('dave', 'new')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers an unknown user and a wrong password alike', async () => {
    const { iam } = await createTestIam();
    await iam.createUser({ username: 'erin', password: 'right' });
    const errors = await Promise.all(
      [basic('erin', 'wrong'), basic('nobody', 'right')].map((authorization) =>
        iam.authenticator.authenticate({ authorization }).catch((e: unknown) => e),
      ),
    );
    const [a, b] = errors as { code: string; message: string }[];
    expect(a!.code).toBe('UNAUTHENTICATED');
    expect({ code: b!.code, message: b!.message }).toEqual({ code: a!.code, message: a!.message });
  });
});

describe('Basic credentials: races and timing', () => {
  it('a password changed while the old one is being checked is refused, and not remembered', async () => {
    const real = createPasswordHasher(TEST_HASH_COST);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const { iam } = await createTestIam({
      passwordHasher: {
        ...real,
        verify: async (stored, password) => {
          const ok = await real.verify(stored, password);
          if (hold) await held;
          return ok;
        },
      },
    });
    const fay = await iam.createUser({ username: 'fay', password: 'old' });
    hold = true;
    const inFlight = iam.verifyPassword('fay', 'old').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    await iam.setPassword(fay.uuid, 'new');
    release();
    hold = false;
    expect(await inFlight).toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(iam.verifyPassword('fay', 'old')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(iam.verifyPassword('fay', 'new')).resolves.toMatchObject({ uuid: fay.uuid });
  });

  it('an unknown user costs a full hash, like a wrong password (the dummy hash runs)', async () => {
    const { iam } = await createTestIam({
      passwordHashCost: { memoryCost: 8192, timeCost: 2 },
      bruteForce: { slowAfter: 1000, lockAfter: 1000, ipSlowAfter: 1000 },
    });
    await iam.createUser({ username: 'gus', password: 'right' });
    const time = async (username: string) => {
      const start = performance.now();
      await iam.verifyPassword(username, 'wrong').catch(() => undefined);
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      wrong.push(await time('gus'));
      unknown.push(await time(`nobody${i}`));
    }
    // Roughly alike: without the dummy hash the unknown user would answer about 100 times faster.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5);
    expect(median(unknown)).toBeLessThan(median(wrong) * 2);
  });
});
