/**
 * Wires the IAM module together: tables, directories, first-start users, the signing key, tokens, the
 * change feed between instances and the authenticator. Signing in is `iam-login.ts`, a user's life
 * `iam-users.ts`, the service's shape `iam-types.ts`.
 */
import { REALM_BASE } from '../../shared/api';
import { AccessTokens } from '../auth/access-tokens';
import { ApiTokenStore, apiTokenSessionId } from '../auth/api-tokens';
import { createIamAuthenticator } from '../auth/iam-authenticator';
import { DEFAULT_REFRESH_POLICY, RefreshTokenStore } from '../auth/refresh-tokens';
import { loadSigningKey, signingKeySource } from '../auth/signing-keys';
import type { ServerConfig } from '../config';
import { type SqlPort, SqliteSqlPort, migrateModule } from '../db/sql';
import type { Logger } from '../logging/logger';
import { bootstrapIam } from './bootstrap';
import { BruteForceGuard, DEFAULT_BRUTE_FORCE_POLICY } from './brute-force-guard';
import { ClientRegistry } from './client-registry';
import { CredentialCache } from './credential-cache';
import { GroupDirectory } from './group-directory';
import { type IamChange, localIamChangeFeed } from './iam-change-feed';
import { createLogin } from './iam-login';
import type { IamOptions, IamService } from './iam-types';
import { userLifecycle } from './iam-users';
import { IAM_MIGRATIONS } from './migrations';
import { POSTGRES_IAM_MIGRATIONS } from './postgres-migrations';
import { PRODUCTION_HASH_COST, createPasswordHasher } from './password-hasher';
import { PrincipalResolver } from './principal-resolver';
import { RoleDirectory } from './role-directory';
import { TenantDirectory } from './tenant-directory';
import { type SyncSqlReader, type SyncUserReader, syncUserReader } from './sync-user-reader';
import { UserDirectory } from './user-directory';

export const TOKEN_AUDIENCE = 'pipework';

function issuerOf(config: ServerConfig): string {
  const base = (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
  return `${base}${REALM_BASE.replace(':realm', config.realm)}`;
}

/**
 * Runs the IAM migrations, creates the first-start entities (under the start-up lock, so instances starting
 * at once make them once), loads what is kept in memory, and returns the service.
 */
export async function createIamService(
  sql: SqlPort,
  config: ServerConfig,
  logger: Logger,
  options: IamOptions,
): Promise<IamService> {
  await migrateModule(sql, 'iam', { sqlite: IAM_MIGRATIONS, postgres: POSTGRES_IAM_MIGRATIONS });
  const now = options.now ?? Date.now;
  const feed = options.changeFeed ?? localIamChangeFeed();
  const hasher =
    options.passwordHasher ?? createPasswordHasher(options.passwordHashCost ?? PRODUCTION_HASH_COST);
  const credentialCache = new CredentialCache(
    { ttlMs: options.credentialCacheTtlMs ?? 60_000, maxEntries: 1000 },
    now,
  );

  /** Drops the cached principals (and a user's remembered passwords) that a change here or elsewhere made stale. */
  const forget = (userUuid?: string): void => {
    resolver.invalidate();
    if (userUuid) credentialCache.invalidateUser(userUuid);
  };
  /** A change made here: forget what it made stale, and tell the other instances. */
  const changed = (change: Extract<IamChange, { kind: 'directory' | 'user' }>): void => {
    forget(change.kind === 'user' ? change.uuid : undefined);
    feed.publish(change);
  };

  const roles = new RoleDirectory(sql, () => changed({ kind: 'directory' }));
  const users: UserDirectory = new UserDirectory(sql, roles, (uuid) => changed({ kind: 'user', uuid }));
  const resolver = new PrincipalResolver(sql, roles, users);
  const groups = new GroupDirectory(sql, roles, () => changed({ kind: 'directory' }));
  const tenants = new TenantDirectory(sql, () => changed({ kind: 'directory' }));
  const clients = new ClientRegistry(sql, hasher);
  const bruteForce = new BruteForceGuard(
    sql,
    { ...DEFAULT_BRUTE_FORCE_POLICY, ...options.bruteForce },
    now,
    options.sleep,
    (username) => feed.publish({ kind: 'login-failures', username }),
  );
  const apiTokens = new ApiTokenStore(sql, now);

  const storedKey = await sql.exclusive('iam.start', async () => {
    await bootstrapIam({
      sql,
      builtInRoles: options.builtInRoles,
      config,
      logger,
      roles,
      users,
      hasher,
      announce: options.announce,
    });
    return loadSigningKey(sql);
  });
  // At the first start the key is made in the background (see signing-keys.ts): start does not wait for it.
  const signingKey = signingKeySource(sql, storedKey);
  const issuer = issuerOf(config);
  const accessTokens = new AccessTokens(
    signingKey,
    {
      issuer,
      audience: TOKEN_AUDIENCE,
      ttlSeconds: options.accessTokenTtlSeconds ?? 300,
      clockToleranceSeconds: 5,
    },
    () => Math.floor(now() / 1000),
  );

  /** A session ended here or on another instance: its access tokens are no longer taken from memory. */
  const refreshTokens = new RefreshTokenStore(
    sql,
    { ...DEFAULT_REFRESH_POLICY, ...options.refreshTokens },
    now,
    (familyId) => {
      accessTokens.forgetSession(familyId);
      feed.publish({ kind: 'revoked', familyId });
    },
  );
  /** A revocation made on another instance (or read back at a resync). */
  const revokedElsewhere = (familyId: string): void => {
    refreshTokens.revokedElsewhere(familyId);
    accessTokens.forgetSession(familyId);
  };

  /** Re-reads everything kept in memory. */
  const reload = async () => {
    resolver.invalidate();
    accessTokens.forgetAll();
    const loadRevoked = async () => {
      await refreshTokens.load();
      for (const id of await apiTokens.revokedSessionIds()) refreshTokens.revokedElsewhere(id);
    };
    await Promise.all([roles.reloadNames(), bruteForce.load(), loadRevoked()]);
  };
  await reload();
  await refreshTokens.purgeExpired();
  /** Another instance's change: re-read or forget what it made stale. */
  const receive = (change: IamChange): void => {
    switch (change.kind) {
      case 'directory':
        forget();
        void roles.reloadNames().catch(logFailure);
        break;
      case 'user':
        forget(change.uuid);
        break;
      case 'revoked':
        revokedElsewhere(change.familyId);
        break;
      case 'login-failures':
        void bruteForce.refresh(change.username).catch(logFailure);
        break;
    }
  };
  feed.subscribe(receive, () => void reload().catch(logFailure));
  function logFailure(error: unknown): void {
    logger.error({ err: error }, 'IAM state could not be re-read after a change elsewhere');
  }

  const principalByUuid = (uuid: string) => resolver.principalByUuid(uuid);
  const principalByUsername = (username: string) => resolver.principalByUsername(username);
  const { identity, tokens } = createLogin({
    users,
    resolver,
    hasher,
    credentialCache,
    bruteForce,
    clients,
    accessTokens,
    refreshTokens,
    apiTokens,
  });

  return {
    ...identity,
    authenticator: createIamAuthenticator(identity),
    tokens,
    apiTokens,
    async revokeApiToken(uuid) {
      const revoked = await apiTokens.revoke(uuid);
      if (revoked) {
        revokedElsewhere(apiTokenSessionId(uuid));
        feed.publish({ kind: 'revoked', familyId: apiTokenSessionId(uuid) });
      }
      return revoked;
    },
    users,
    roles,
    groups,
    tenants,
    clients,
    bruteForce,
    usersSync: syncReaderOf(sql, options.syncReader, users),
    issuer,
    realm: config.realm,
    principalByUsername,
    principalByUuid,

    ...userLifecycle({
      sql,
      users,
      groups,
      tenants,
      hasher,
      refreshTokens,
      principalByUuid,
      userChanged: (uuid) => changed({ kind: 'user', uuid }),
    }),

    jwks: async () => ({ keys: [await accessTokens.publicJwk()] }),

    appAccessRole(appName) {
      const role = `CAN_APP_${appName.toUpperCase()}`;
      return roles.hasName(role) ? role : null;
    },

    close() {
      feed.close();
    },
  };
}

/** SQLite answers at once; another database needs a synchronous reader (PostgreSQL: the sync bridge). */
function syncReaderOf(sql: SqlPort, given: SyncSqlReader | undefined, users: UserDirectory): SyncUserReader {
  const reader = given ?? (sql instanceof SqliteSqlPort ? sql : undefined);
  if (!reader) throw new Error(`PEL's user lookups need a synchronous reader on ${sql.dialect.name}.`);
  return syncUserReader(reader, users);
}
