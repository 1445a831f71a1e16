/**
 * The IAM's storage contract, run against SQLite and PostgreSQL (`iam-stores.test.ts`): the directories,
 * sessions (refresh-token families) and login-failure counts behave the same on both, including when two
 * instances share one database (`open` twice on the same database).
 */
import { describe, expect, it } from 'vitest';
import type { SqlPort } from '../db/sql';
import type { SyncSqlReader } from './sync-user-reader';
import { BUILT_IN_ROLES } from '../commands/command-roles';
import { silentLogger } from '../logging/logger';
import { createIamService } from './iam-service';
import type { IamOptions } from './iam-types';
import { TEST_HASH_COST } from './password-hasher';
import { testConfig } from './test-iam';

export interface IamDatabase {
  /** A port on the database; called again, a second instance on the same database. */
  port(): SqlPort;
  /** What answers PEL's user lookups at once where the port cannot (PostgreSQL: the sync bridge). */
  syncReader?: SyncSqlReader;
  dispose(): Promise<void>;
}

const policy = { slowAfter: 100, lockAfter: 3, windowMs: 60_000, lockMs: 60_000 };

export function runIamStoreContract(name: string, open: () => Promise<IamDatabase>): void {
  /** An IAM (an instance) on the database. */
  const iamOn = (db: IamDatabase, options: Partial<IamOptions> = {}) =>
    createIamService(db.port(), testConfig(), silentLogger(), {
      builtInRoles: BUILT_IN_ROLES,
      syncReader: db.syncReader,
      passwordHashCost: TEST_HASH_COST,
      sleep: async () => {},
      bruteForce: policy,
      ...options,
    });

  async function withDatabase(test: (db: IamDatabase) => Promise<void>): Promise<void> {
    const db = await open();
    try {
      await test(db);
    } finally {
      await db.dispose();
    }
  }

  describe(`IAM storage contract: ${name}`, () => {
    it('bootstraps once when two instances start at the same moment, and both sign with the same key', () =>
      withDatabase(async (db) => {
        const [a, b] = await Promise.all([iamOn(db), iamOn(db)]);
        const users = await a.users.list({ max: 100 });
        expect(users.map((u) => u.username).sort()).toEqual(['admin', 'systemuser']);
        expect(await a.jwks()).toEqual(await b.jwks());
        a.close();
        b.close();
      }));

    it('finds users ignoring the case of names and emails, and refuses duplicates in any case', () =>
      withDatabase(async (db) => {
        const iam = await iamOn(db);
        const ann = await iam.createUser({ username: 'Ann', email: 'Ann@Example.com', password: 'pw' });
        expect((await iam.users.byName('aNN'))?.uuid).toBe(ann.uuid);
        expect((await iam.users.byEmail('ann@example.COM'))?.uuid).toBe(ann.uuid);
        expect(iam.usersSync.byName('ANN')?.uuid).toBe(ann.uuid);
        expect(iam.usersSync.byEmail('ANN@example.com')?.username).toBe('Ann');
        await expect(iam.createUser({ username: 'ANN' })).rejects.toMatchObject({ code: 'CONFLICT' });
        await expect(iam.createUser({ username: 'bob', email: 'ann@example.com' })).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        // A refused user left nothing behind: no row, no role.
        expect(await iam.users.byName('bob')).toBeUndefined();
        iam.close();
      }));

    it('creates a name once when two instances create it at the same moment; the other gets CONFLICT', () =>
      withDatabase(async (db) => {
        const [a, b] = await Promise.all([iamOn(db), iamOn(db)]);
        for (const create of [
          (iam: typeof a, i: number) => iam.createUser({ username: `Twin${i % 2 ? 'S' : 's'}` }),
          (iam: typeof a) => iam.groups.create({ name: 'twins' }),
          (iam: typeof a) => iam.roles.create({ name: 'ROLE_TWIN' }),
          (iam: typeof a) => iam.tenants.create('twin-co'),
        ]) {
          const results = await Promise.allSettled([create(a, 0), create(b, 1)]);
          expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
          const refused = results.find((r) => r.status === 'rejected')!.reason as { code?: string };
          expect(refused.code).toBe('CONFLICT');
        }
        a.close();
        b.close();
      }));

    it('expands roles through groups and composites, and lists with filter, order and paging', () =>
      withDatabase(async (db) => {
        const iam = await iamOn(db);
        await iam.roles.create({ name: 'ROLE_CLERK' });
        await iam.roles.addComposites('ROLE_CLERK', ['CAN_PIPE_a', 'CAN_PIPE_b']);
        await iam.roles.addComposites('CAN_PIPE_b', ['CAN_PIPE_c', 'ROLE_CLERK']);
        const group = await iam.groups.create({ name: 'desk', roleNames: ['ROLE_CLERK'] });
        const tenant = await iam.tenants.create('acme');
        const carl = await iam.createUser({ username: 'carl', groups: ['desk'], tenants: ['acme'] });
        for (const role of ['CAN_PIPE_a', 'CAN_PIPE_b', 'CAN_PIPE_c', 'ROLE_CLERK', 'ROLE_USER'])
          expect(carl.roles.has(role)).toBe(true);
        expect(carl.roles.has('ROLE_ADMIN')).toBe(false);
        expect([...carl.groups]).toEqual([group.uuid]);
        expect([...carl.tenants]).toEqual([tenant.uuid]);
        expect((await iam.roles.memberUuids('CAN_PIPE_c')).sort()).toEqual([carl.uuid]);
        expect(await iam.roles.effectiveGroupRoleNames(group.uuid)).toContain('CAN_PIPE_c');
        for (const n of ['dora', 'Eve', 'fred']) await iam.createUser({ username: n });
        const page = await iam.users.list({ filter: 'E', max: 2, offset: 0 });
        expect(page.map((u) => u.username)).toEqual(['Eve', 'fred']);
        expect((await iam.roles.list({ filter: 'clerk' })).map((r) => [r.name, r.composite])).toEqual([
          ['ROLE_CLERK', true],
        ]);
        expect(iam.appAccessRole('x')).toBeNull();
        await iam.roles.create({ name: 'CAN_APP_X' });
        expect(iam.appAccessRole('x')).toBe('CAN_APP_X');
        iam.close();
      }));

    it('rotates a refresh token once when two instances are handed it at the same moment; reuse ends the session', () =>
      withDatabase(async (db) => {
        const [a, b] = await Promise.all([iamOn(db), iamOn(db)]);
        const login = await a.tokens
          .passwordGrant({ clientId: 'cli', username: 'admin', password: 'x' })
          .catch(() => undefined);
        expect(login).toBeUndefined(); // wrong password
        const user = await a.createUser({ username: 'gil', password: 'gil-pw' });
        const first = await a.tokens.passwordGrant({ clientId: 'cli', username: 'gil', password: 'gil-pw' });
        const results = await Promise.allSettled([
          a.tokens.refreshGrant({ clientId: 'cli', refreshToken: first.refresh_token }),
          b.tokens.refreshGrant({ clientId: 'cli', refreshToken: first.refresh_token }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const winner = results.find((r) => r.status === 'fulfilled')!.value;
        // The second presentation was reuse: the whole session ended, the winner's new token too.
        await expect(
          a.tokens.refreshGrant({ clientId: 'cli', refreshToken: winner.refresh_token }),
        ).rejects.toMatchObject({ error: 'invalid_grant' });
        expect(user.uuid).toBeTruthy();
        a.close();
        b.close();
      }));

    it('adds up failed logins from two instances and holds the lock on both', () =>
      withDatabase(async (db) => {
        const [a, b] = await Promise.all([iamOn(db), iamOn(db)]);
        await a.createUser({ username: 'hal', password: 'hal-pw' });
        await Promise.all([
          a.verifyPassword('hal', 'bad').catch(() => undefined),
          b.verifyPassword('hal', 'bad').catch(() => undefined),
        ]);
        expect((await b.bruteForce.status('hal')).failures).toBe(2);
        await a.verifyPassword('hal', 'bad').catch(() => undefined);
        // Locked after 3, though each instance saw fewer; the right password does not get through on either.
        await expect(b.verifyPassword('hal', 'hal-pw')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
        await expect(a.verifyPassword('hal', 'hal-pw')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
        await a.bruteForce.release('hal');
        expect((await b.verifyPassword('hal', 'hal-pw')).username).toBe('hal');
        a.close();
        b.close();
      }));

    it('keeps sessions, revocations and locks across a restart', () =>
      withDatabase(async (db) => {
        const a = await iamOn(db);
        await a.createUser({ username: 'ivy', password: 'ivy-pw' });
        const grant = await a.tokens.passwordGrant({ clientId: 'cli', username: 'ivy', password: 'ivy-pw' });
        await a.tokens.logout(grant.refresh_token);
        for (let i = 0; i < 3; i++) await a.verifyPassword('ivy', 'bad').catch(() => undefined);
        a.close();
        const again = await iamOn(db);
        await expect(again.principalFromAccessToken(grant.access_token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
        });
        expect(() => again.bruteForce.assertNotLocked('ivy')).toThrow(
          expect.objectContaining({ code: 'TOO_MANY_REQUESTS' }),
        );
        again.close();
      }));

    it('API tokens: stored as digests, refused once revoked or expired, also on another instance', () =>
      withDatabase(async (db) => {
        let clock = Date.now();
        const a = await iamOn(db, { now: () => clock });
        const b = await iamOn(db, { now: () => clock });
        const jo = await a.createUser({ username: 'jo', password: 'jo-pw' });
        const kept = await a.apiTokens.create(jo.uuid, { name: 'ci', days: 1 });
        const revoked = await a.apiTokens.create(jo.uuid, { name: 'old' });
        const stored = await db.port().all<{ token_hash: string }>('SELECT token_hash FROM iam_api_token');
        expect(stored.map((row) => row.token_hash)).not.toContain(kept.token);
        expect((await b.principalFromApiToken(kept.token)).username).toBe('jo');
        const access = await b.tokens.refreshGrant({ clientId: 'cli', refreshToken: revoked.token });
        expect((await a.principalFromAccessToken(access.access_token)).username).toBe('jo');
        expect(await a.revokeApiToken(revoked.uuid)).toBe(true);
        await expect(b.principalFromApiToken(revoked.token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
        });
        await expect(
          b.tokens.refreshGrant({ clientId: 'cli', refreshToken: revoked.token }),
        ).rejects.toMatchObject({ error: 'invalid_grant' });
        // The access token got with it ends too, on this instance and after a restart of the other.
        await expect(a.principalFromAccessToken(access.access_token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
        });
        b.close();
        const restarted = await iamOn(db, { now: () => clock });
        await expect(restarted.principalFromAccessToken(access.access_token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
        });
        expect((await restarted.apiTokens.list(jo.uuid)).map((t) => t.name)).toEqual(['ci']);
        clock += 86_400_000 + 1;
        await expect(restarted.principalFromApiToken(kept.token)).rejects.toMatchObject({
          code: 'UNAUTHENTICATED',
        });
        expect(await restarted.apiTokens.list(jo.uuid)).toEqual([]);
        a.close();
        restarted.close();
      }));
  });
}
