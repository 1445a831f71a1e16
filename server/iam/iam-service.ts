/** Wires the IAM module together: tables, directories, first-start users, passwords, tokens, and the authenticator. */
import type { Principal } from '../../shared/auth';
import { ROLE_USER } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { AccessTokens } from '../auth/access-tokens';
import { ApiTokenStore, apiTokenSessionId } from '../auth/api-tokens';
import type { Authenticator } from '../auth/authenticator';
import { type IdentityProvider, createIamAuthenticator } from '../auth/iam-authenticator';
import { OAuthError } from '../auth/oauth-error';
import { DEFAULT_REFRESH_POLICY, RefreshTokenStore, type RefreshTokenPolicy } from '../auth/refresh-tokens';
import { switchPrincipal } from '../auth/run-as';
import { type PublicJwk, loadOrCreateSigningKey } from '../auth/signing-keys';
import { TokenService } from '../auth/token-service';
import type { ServerConfig } from '../config';
import { type SqlPort, SqliteSqlPort, migrateModule } from '../db/sql';
import type { Logger } from '../logging/logger';
import { ADMIN_USERNAME, SYSTEM_USERNAME, bootstrapIam } from './bootstrap';
import type { BuiltInRole } from './built-in-roles';
import { BruteForceGuard, DEFAULT_BRUTE_FORCE_POLICY, type BruteForcePolicy } from './brute-force-guard';
import { ClientRegistry } from './client-registry';
import { CredentialCache } from './credential-cache';
import { GroupDirectory } from './group-directory';
import { type IamChange, type IamChangeFeed, localIamChangeFeed } from './iam-change-feed';
import { IAM_MIGRATIONS } from './migrations';
import { POSTGRES_IAM_MIGRATIONS } from './postgres-migrations';
import {
  PRODUCTION_HASH_COST,
  type PasswordHashCost,
  type PasswordHasher,
  createPasswordHasher,
} from './password-hasher';
import { PrincipalResolver } from './principal-resolver';
import { RoleDirectory } from './role-directory';
import { TenantDirectory } from './tenant-directory';
import { type SyncSqlReader, type SyncUserReader, syncUserReader } from './sync-user-reader';
import { UserDirectory } from './user-directory';

export interface IamOptions {
  /** The built-in roles with their default permissions: `BUILT_IN_ROLES` of server/commands/command-roles.ts. */
  builtInRoles: readonly BuiltInRole[];
  /** Lower only in tests (see TEST_HASH_COST). */
  passwordHashCost?: PasswordHashCost;
  /** Replaces the hasher (tests that need to hold a verification in flight). */
  passwordHasher?: PasswordHasher;
  bruteForce?: Partial<BruteForcePolicy>;
  accessTokenTtlSeconds?: number;
  refreshTokens?: Partial<RefreshTokenPolicy>;
  /** How long a verified username+password is remembered (Basic auth). */
  credentialCacheTtlMs?: number;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
  /** Where a generated admin password is announced (stdout by default). */
  announce?: (line: string) => void;
  /** The waits of the brute-force slow-down (tests make them instant). */
  sleep?: (ms: number) => Promise<void>;
  /** Answers statements synchronously for PEL's user lookups when the port cannot (PostgreSQL). */
  syncReader?: SyncSqlReader;
  /** How this instance hears of other instances' IAM changes (PostgreSQL); alone by default. */
  changeFeed?: IamChangeFeed;
}

export interface CreateUserInput {
  username: string;
  /** Without one, the user cannot log in until a password is set. */
  password?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** Role names granted directly (ROLE_USER is always granted). */
  roles?: readonly string[];
  /** Group names (or uuids) to join. */
  groups?: readonly string[];
  /** Tenant names (or uuids) to join. */
  tenants?: readonly string[];
  attributes?: string | null;
  canLogin?: boolean;
}

export interface IamService extends IdentityProvider {
  readonly authenticator: Authenticator;
  readonly tokens: TokenService;
  /** Long-lived API tokens (`iam.apitoken*`). */
  readonly apiTokens: ApiTokenStore;
  /** Revokes an API token here and on every instance, with the access tokens obtained through it. */
  revokeApiToken(uuid: string): Promise<boolean>;
  readonly users: UserDirectory;
  readonly roles: RoleDirectory;
  readonly groups: GroupDirectory;
  readonly tenants: TenantDirectory;
  readonly clients: ClientRegistry;
  readonly bruteForce: BruteForceGuard;
  /** User rows read synchronously, for PEL (`sync-user-reader.ts`). */
  readonly usersSync: SyncUserReader;
  /** `<publicUrl>/auth/realms/<realm>`: the `iss` of every token. */
  readonly issuer: string;
  readonly realm: string;
  principalByUsername(username: string): Promise<Principal | null>;
  principalByUuid(uuid: string): Promise<Principal | null>;
  createUser(input: CreateUserInput): Promise<Principal>;
  setPassword(userUuid: string, password: string | null): Promise<void>;
  /** A disabled user cannot sign in by any scheme and its sessions end; enabling does not revive them. */
  setEnabled(userUuid: string, enabled: boolean): Promise<void>;
  deleteUser(userUuid: string): Promise<void>;
  /** The JWKS document of the certs endpoint. */
  jwks(): { keys: PublicJwk[] };
  /** The role that guards an app (`CAN_APP_<APP>`), when one exists; apps without one are open. */
  appAccessRole(appName: string): string | null;
  /** Stops hearing other instances' changes. */
  close(): void;
}

export const TOKEN_AUDIENCE = 'pipework';

function issuerOf(config: ServerConfig): string {
  const base = (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
  return `${base}/auth/realms/${config.realm}`;
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

  const signingKey = await sql.exclusive('iam.start', async () => {
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
    return loadOrCreateSigningKey(sql);
  });
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
  const unauthenticated = (message = 'Invalid user credentials') =>
    new PipeworkError('UNAUTHENTICATED', message);

  async function verifyPassword(username: string, password: string, ip?: string): Promise<Principal> {
    // Remembered credentials (Basic auth on every request) are checked against the lock mirror first: an
    // address locked out of the account gets nothing from them either.
    await bruteForce.assertNotLockedCheaply(username, ip);
    const cachedUuid = credentialCache.get(username, password);
    if (cachedUuid) {
      const principal = await principalByUuid(cachedUuid);
      if (principal) return principal;
    }
    await bruteForce.beforeAttempt(username, ip);
    const row = await users.byName(username);
    const verified =
      row && row.password_hash && row.can_login && row.enabled
        ? await hasher.verify(row.password_hash, password)
        : await hasher.verifyDummy(password).then(() => false);
    // A lock set while this attempt was being checked (here or on another instance) holds for it too.
    await bruteForce.assertNotLockedNow(username, ip);
    if (!verified || !row) {
      await bruteForce.recordFailure(username, ip);
      throw unauthenticated();
    }
    // A password changed (or the user disabled) while the hash was checked: the old password is no longer one.
    const current = await users.byUuid(row.uuid);
    if (current?.password_hash !== row.password_hash || !current.enabled || !current.can_login) {
      throw unauthenticated();
    }
    await bruteForce.recordSuccess(username, ip);
    const principal = await principalByUuid(row.uuid);
    if (!principal) throw unauthenticated();
    credentialCache.set(username, password, row.uuid);
    return principal;
  }

  async function principalFromAccessToken(token: string): Promise<Principal> {
    const claims = await accessTokens.verify(token);
    if (refreshTokens.isRevoked(claims.sid)) throw unauthenticated('The session of this token was revoked.');
    const principal = await principalByUuid(claims.sub);
    // Login locks guard passwords per address; a session already earned is no guess (docs/auth.md).
    if (!principal) throw unauthenticated('Invalid access token.');
    return principal;
  }

  async function principalFromRefreshToken(token: string): Promise<Principal> {
    if (ApiTokenStore.isApiToken(token)) return principalFromApiToken(token);
    let userUuid: string;
    try {
      userUuid = (await refreshTokens.use(token, { rotate: false })).userUuid;
    } catch (error) {
      if (error instanceof OAuthError) throw unauthenticated(error.description);
      throw error;
    }
    const principal = await principalByUuid(userUuid);
    if (!principal) throw unauthenticated('Invalid refresh token');
    return principal;
  }

  async function principalFromApiToken(token: string): Promise<Principal> {
    const grant = await apiTokens.verify(token);
    const principal = await principalByUuid(grant.userUuid);
    if (!principal) throw unauthenticated('Invalid, expired or revoked API token.');
    await bruteForce.assertNotLockedCheaply(principal.username);
    return principal;
  }

  async function runAs(caller: Principal, username: string): Promise<Principal> {
    return switchPrincipal(caller, username, await principalByUsername(username));
  }

  const identity: IdentityProvider = {
    verifyPassword,
    principalFromAccessToken,
    principalFromRefreshToken,
    principalFromApiToken,
    runAs,
  };
  const tokens = new TokenService({
    accessTokens,
    refreshTokens,
    apiTokens,
    authenticateClient: (id, secret) => clients.authenticate(id, secret),
    verifyPassword,
    principalByUuid,
    // A refresh is a session already earned, not a password guess: login locks do not refuse it.
    assertNotLocked: async () => undefined,
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

    async createUser(input) {
      const passwordHash = input.password === undefined ? null : await hasher.hash(input.password);
      const groupRows = await Promise.all(
        (input.groups ?? []).map(async (g) => (await groups.byUuid(g)) ?? groups.require({ name: g })),
      );
      const tenantRows = await Promise.all(
        (input.tenants ?? []).map(async (t) => (await tenants.byUuid(t)) ?? tenants.require({ name: t })),
      );
      const row = await sql.transaction(function* () {
        const created = yield* users.insertSteps({
          username: input.username,
          passwordHash,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          attributes: input.attributes,
          canLogin: input.canLogin,
        });
        yield* users.addRolesSteps(created.uuid, [ROLE_USER, ...(input.roles ?? [])]);
        for (const group of groupRows) yield* groups.addMemberSteps(group.uuid, created.uuid);
        for (const tenant of tenantRows) yield* tenants.addMemberSteps(tenant.uuid, created.uuid);
        return created;
      });
      changed({ kind: 'user', uuid: row.uuid });
      return (await principalByUuid(row.uuid))!;
    },

    async setPassword(userUuid, password) {
      await users.require({ uuid: userUuid });
      await users.setPasswordHash(userUuid, password === null ? null : await hasher.hash(password));
      await refreshTokens.revokeUser(userUuid);
    },

    async setEnabled(userUuid, enabled) {
      const row = await users.require({ uuid: userUuid });
      if (!enabled && (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME)) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be disabled.`);
      }
      await users.setEnabled(userUuid, enabled);
      if (!enabled) await refreshTokens.revokeUser(userUuid);
    },

    async deleteUser(userUuid) {
      const row = await users.require({ uuid: userUuid });
      if (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be deleted.`);
      }
      await refreshTokens.revokeUser(userUuid);
      await users.delete(userUuid);
    },

    jwks: () => ({ keys: [accessTokens.publicJwk] }),

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
