// The secret service on both databases (SQLite and a real PostgreSQL): values sealed at rest with a key file
// of mode 0600, used by scope (own, group, installation with its permission), refused to others and to code
// someone else stored, wrong formats refused with nothing written, expiry, and a key rotation that loses nothing.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIamService } from '../iam';
import { TEST_HASH_COST } from '../iam';
import { testConfig } from '../iam/test-iam';
import { BUILT_IN_ROLES } from '../commands/command-roles';
import { silentLogger } from '../logging/logger';
import { runMaskOf } from '../runs/run-scope';
import { SecretMask } from '../runs/secret-mask';
import { makePrincipal } from '../store/test-fixtures';
import { openDatabase } from '../db/open-database';
import { SqliteSqlPort } from '../db/sql';
import { sqlBackends } from '../testing/sql-backends';
import { createSecretService, loadSecretKeyConfig } from '.';

const root = mkdtempSync(join(tmpdir(), 'secret-service-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const backends = sqlBackends('secret');

const VALUE = 'tok-3f9a1c77e2d04b8e';
const mask = new SecretMask();

describe.each(backends)('secrets on %s', (name, open, skip) => {
  it.skipIf(skip)(
    'seals, scopes, refuses, expires and rotates',
    async () => {
      const dir = mkdtempSync(join(root, `${name}-`));
      const { sql, close } = await open('secret');
      try {
        const config = testConfig({ dataDir: dir });
        const iam = await createIamService(sql, config, silentLogger(), {
          builtInRoles: BUILT_IN_ROLES,
          passwordHashCost: TEST_HASH_COST,
          announce: () => {},
          // PEL's synchronous user lookups are not part of this test (the server uses the sync bridge).
          syncReader: {
            rowSync: () => {
              throw new Error('not used here');
            },
          },
        });
        const secrets = await createSecretService(sql, iam, loadSecretKeyConfig({}, dir));
        const keyFile = join(dir, 'secrets.key');
        expect(statSync(keyFile).mode & 0o777).toBe(0o600);
        const ann = makePrincipal('ann-uuid');
        const ben = makePrincipal('ben-uuid');
        const admin = makePrincipal('admin-uuid', { admin: true });

        const info = await secrets.put(mask, ann, {
          name: 'crm',
          format: 'bearer',
          secret: `Bearer: ${VALUE}`,
        });
        expect(info).toMatchObject({ name: 'crm', format: 'bearer', scope: 'user', createdBy: 'ann-uuid' });
        expect(JSON.stringify(info)).not.toContain(VALUE);
        const row = await sql.get<{ sealed: string; key_id: string }>('SELECT sealed, key_id FROM secret');
        expect(row!.sealed).not.toContain(VALUE);
        expect(Buffer.from(row!.sealed, 'base64').toString('latin1')).not.toContain(VALUE);

        expect(await secrets.use(mask, ann, 'crm')).toEqual({ format: 'bearer', token: VALUE });
        await expect(secrets.use(mask, ben, 'crm')).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await secrets.list(ben)).toEqual([]);
        // Code ann stored, run by ben: ben's run may not reach ann's secret; ben's code run by ann neither.
        await expect(secrets.use(mask, { ...ann, limitedBy: [ben] }, 'crm')).rejects.toMatchObject({
          code: 'FORBIDDEN',
        });

        // Wrong formats: refused, nothing written.
        for (const [format, bad] of [
          ['username-password', 'no-colon-here'],
          ['header', 'not a header'],
          ['bearer', 'Bearer: two words'],
          ['header', 'Host: evil.example'],
        ] as const) {
          await expect(secrets.put(mask, ann, { name: 'bad', format, secret: bad })).rejects.toMatchObject({
            code: 'PARAM_INVALID',
          });
        }
        expect((await secrets.list(ann)).map((s) => s.name)).toEqual(['crm']);

        // A group's secret: its members use it; a non-member may not write it.
        const group = await iam.groups.create({ name: 'Sales' });
        // Refused to `who`, then stored by the admin.
        const storedOnlyByAdmin = async (who: typeof ann, input: Parameters<typeof secrets.put>[2]) => {
          await expect(secrets.put(mask, who, input)).rejects.toMatchObject({ code: 'FORBIDDEN' });
          await secrets.put(mask, admin, input);
        };
        await storedOnlyByAdmin(ben, {
          name: 'smtp',
          format: 'username-password',
          secret: 'robot:pw-1234',
          scope: 'group',
          scopeName: 'Sales',
        });
        const member = makePrincipal('cy-uuid', { groups: [group.uuid] });
        expect(await secrets.use(mask, member, 'smtp')).toMatchObject({
          username: 'robot',
          password: 'pw-1234',
        });
        await expect(secrets.use(mask, ben, 'smtp')).rejects.toMatchObject({ code: 'NOT_FOUND' });

        // The installation's: admins, or who holds CAN_USE_SECRET_<name>.
        await storedOnlyByAdmin(ann, {
          name: 'global',
          format: 'secret-text',
          secret: 'text-5678',
          scope: 'installation',
        });
        await expect(secrets.use(mask, ann, 'global')).rejects.toMatchObject({ code: 'NOT_FOUND' });
        const granted = { ...ann, roles: new Set([...ann.roles, 'CAN_USE_SECRET_global']) };
        expect(await secrets.use(mask, granted, 'global')).toEqual({
          format: 'secret-text',
          text: 'text-5678',
        });

        // Used outside a run, a value could leave unmasked: there is no mask to use it with.
        expect(() => runMaskOf({})).toThrow(/outside a pipeline run/);

        // Rotation: a new key file, every value re-sealed, nothing lost; the old key is gone.
        const oldKey = readFileSync(keyFile, 'utf8');
        const rotated = await secrets.rotateKey();
        expect(rotated.resealed).toBe(3);
        expect(readFileSync(keyFile, 'utf8')).not.toBe(oldKey);
        expect(statSync(keyFile).mode & 0o777).toBe(0o600);
        expect(await secrets.use(mask, ann, 'crm')).toEqual({ format: 'bearer', token: VALUE });
        const keyIds = await sql.all<{ key_id: string }>('SELECT DISTINCT key_id FROM secret');
        expect(keyIds).toEqual([{ key_id: rotated.keyId }]);
        // Another instance (a fresh service on the same files) opens them with the new key file.
        const again = await createSecretService(sql, iam, loadSecretKeyConfig({}, dir));
        expect(await again.use(mask, member, 'smtp')).toMatchObject({ password: 'pw-1234' });

        // A time to live: gone for use at once, deleted by the cleanup.
        await secrets.put(mask, ann, {
          name: 'brief',
          format: 'secret-text',
          secret: 'short-lived',
          timeToLive: 1,
        });
        const later = await createSecretService(sql, iam, loadSecretKeyConfig({}, dir));
        Object.assign(later, { now: () => Date.now() + 61_000 });
        await expect(later.use(mask, ann, 'brief')).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await later.deleteExpired()).toBe(1);
        expect(await secrets.delete(ann, 'crm', {})).toBe(true);
        expect(await secrets.delete(ann, 'crm', {})).toBe(false);
        iam.close();
      } finally {
        await close();
      }
    },
    60_000,
  );
});

describe('the master key', () => {
  it('comes from PIPEWORK_SECRETS_KEY when set, and a bad one stops the start', async () => {
    const dir = mkdtempSync(join(root, 'env-'));
    const db = openDatabase(join(dir, 'k.sqlite'));
    try {
      const sql = new SqliteSqlPort(db);
      const iam = await createIamService(sql, testConfig({ dataDir: dir }), silentLogger(), {
        builtInRoles: BUILT_IN_ROLES,
        passwordHashCost: TEST_HASH_COST,
        announce: () => {},
      });
      await expect(
        createSecretService(sql, iam, loadSecretKeyConfig({ PIPEWORK_SECRETS_KEY: 'short' }, dir)),
      ).rejects.toThrow(/32 random bytes/);
      const key = Buffer.alloc(32, 7).toString('base64');
      const secrets = await createSecretService(
        sql,
        iam,
        loadSecretKeyConfig({ PIPEWORK_SECRETS_KEY: key }, dir),
      );
      await secrets.put(mask, makePrincipal('u'), { name: 'k', format: 'secret-text', secret: 'value-123' });
      expect(() => statSync(join(dir, 'secrets.key'))).toThrow();
      // Another key cannot open it (and says so without the value).
      const other = await createSecretService(
        sql,
        iam,
        loadSecretKeyConfig({ PIPEWORK_SECRETS_KEY: Buffer.alloc(32, 8).toString('base64') }, dir),
      );
      await expect(other.use(mask, makePrincipal('u'), 'k')).rejects.toThrow(/lacks/);
      // The previous key reads it, and a rotation re-seals it under the new one.
      const rotating = await createSecretService(
        sql,
        iam,
        loadSecretKeyConfig(
          {
            PIPEWORK_SECRETS_KEY: Buffer.alloc(32, 8).toString('base64'),
            PIPEWORK_SECRETS_KEY_PREVIOUS: key,
          },
          dir,
        ),
      );
      expect((await rotating.rotateKey()).resealed).toBe(1);
      expect(await other.use(mask, makePrincipal('u'), 'k')).toEqual({
        format: 'secret-text',
        text: 'value-123',
      });
      iam.close();
    } finally {
      db.close();
    }
  });
});
