/** Wires the IAM module together: tables, directories, first-start users, passwords, tokens, and the authenticator. */
import type { Principal } from '../../shared/auth';
import { ROLE_USER } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { AccessTokens } from '../auth/access-tokens';
import type { Authenticator } from '../auth/authenticator';
import { type IdentityProvider, createIamAuthenticator } from '../auth/iam-authenticator';
import { OAuthError } from '../auth/oauth-error';
import { DEFAULT_REFRESH_POLICY, RefreshTokenStore, type RefreshTokenPolicy } from '../auth/refresh-tokens';
import { switchPrincipal } from '../auth/run-as';
import { type PublicJwk, loadOrCreateSigningKey } from '../auth/signing-keys';
import { TokenService } from '../auth/token-service';
import type { ServerConfig } from '../config';
import { type SqliteDatabase, migrate } from '../db';
import type { Logger } from '../logging/logger';
import { ADMIN_USERNAME, SYSTEM_USERNAME, bootstrapIam } from './bootstrap';
import { BruteForceGuard, DEFAULT_BRUTE_FORCE_POLICY, type BruteForcePolicy } from './brute-force-guard';
import { ClientRegistry } from './client-registry';
import { CredentialCache } from './credential-cache';
import { GroupDirectory } from './group-directory';
import { IAM_MIGRATIONS } from './migrations';
import {
  PRODUCTION_HASH_COST,
  type PasswordHashCost,
  type PasswordHasher,
  createPasswordHasher,
} from './password-hasher';
import { PrincipalResolver } from './principal-resolver';
import { RoleDirectory } from './role-directory';
import { TenantDirectory } from './tenant-directory';
import { UserDirectory } from './user-directory';

export interface IamOptions {
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
  readonly users: UserDirectory;
  readonly roles: RoleDirectory;
  readonly groups: GroupDirectory;
  readonly tenants: TenantDirectory;
  readonly clients: ClientRegistry;
  readonly bruteForce: BruteForceGuard;
  /** `<publicUrl>/auth/realms/<realm>`: the `iss` of every token. */
  readonly issuer: string;
  readonly realm: string;
  principalByUsername(username: string): Principal | null;
  principalByUuid(uuid: string): Principal | null;
  createUser(input: CreateUserInput): Promise<Principal>;
  setPassword(userUuid: string, password: string | null): Promise<void>;
  /** A disabled user cannot sign in by any scheme and its sessions end; enabling does not revive them. */
  setEnabled(userUuid: string, enabled: boolean): void;
  deleteUser(userUuid: string): void;
  /** The JWKS document of the certs endpoint. */
  jwks(): { keys: PublicJwk[] };
  /** The role that guards an app (`CAN_APP_<APP>`), when one exists; apps without one are open. */
  appAccessRole(appName: string): string | null;
}

export const TOKEN_AUDIENCE = 'pipework';

function issuerOf(config: ServerConfig): string {
  const base = (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
  return `${base}/auth/realms/${config.realm}`;
}

/** Runs the IAM migrations, creates the first-start entities, and returns the service. */
export function createIamService(
  db: SqliteDatabase,
  config: ServerConfig,
  logger: Logger,
  options: IamOptions = {},
): IamService {
  migrate(db, 'iam', IAM_MIGRATIONS);
  const now = options.now ?? Date.now;
  const hasher =
    options.passwordHasher ?? createPasswordHasher(options.passwordHashCost ?? PRODUCTION_HASH_COST);
  const credentialCache = new CredentialCache(
    { ttlMs: options.credentialCacheTtlMs ?? 60_000, maxEntries: 1000 },
    now,
  );

  const appRoleExists = new Map<string, boolean>();
  const invalidateAll = () => {
    resolver.invalidate();
    appRoleExists.clear();
  };
  const roles = new RoleDirectory(db, invalidateAll);
  const resolver = new PrincipalResolver(db, roles);
  const users = new UserDirectory(db, roles, (uuid) => {
    resolver.invalidate();
    credentialCache.invalidateUser(uuid);
  });
  const groups = new GroupDirectory(db, roles, invalidateAll);
  const tenants = new TenantDirectory(db, invalidateAll);
  const clients = new ClientRegistry(db, hasher);
  const bruteForce = new BruteForceGuard(
    db,
    { ...DEFAULT_BRUTE_FORCE_POLICY, ...options.bruteForce },
    now,
    options.sleep,
    (username) => {
      const uuid = resolver.principalByUsername(username)?.uuid;
      if (uuid) credentialCache.invalidateUser(uuid);
    },
  );

  bootstrapIam({ db, config, logger, roles, users, hasher, announce: options.announce });

  const issuer = issuerOf(config);
  const accessTokens = new AccessTokens(
    loadOrCreateSigningKey(db),
    {
      issuer,
      audience: TOKEN_AUDIENCE,
      ttlSeconds: options.accessTokenTtlSeconds ?? 300,
      clockToleranceSeconds: 5,
    },
    () => Math.floor(now() / 1000),
  );
  const refreshTokens = new RefreshTokenStore(
    db,
    { ...DEFAULT_REFRESH_POLICY, ...options.refreshTokens },
    now,
  );
  refreshTokens.purgeExpired();

  const principalByUuid = (uuid: string) => resolver.principalByUuid(uuid);
  const principalByUsername = (username: string) => resolver.principalByUsername(username);
  const unauthenticated = (message = 'Invalid user credentials') =>
    new PipeworkError('UNAUTHENTICATED', message);

  async function verifyPassword(username: string, password: string, ip?: string): Promise<Principal> {
    await bruteForce.beforeAttempt(username, ip);
    const cachedUuid = credentialCache.get(username, password);
    if (cachedUuid) {
      const principal = principalByUuid(cachedUuid);
      if (principal) return principal;
    }
    const row = users.byName(username);
    const verified =
      row && row.password_hash && row.can_login && row.enabled
        ? await hasher.verify(row.password_hash, password)
        : await hasher.verifyDummy(password).then(() => false);
    // A lock set while this attempt was being checked holds for it too.
    bruteForce.assertNotLocked(username);
    if (!verified || !row) {
      bruteForce.recordFailure(username, ip);
      throw unauthenticated();
    }
    // A password changed (or the user disabled) while the hash was checked: the old password is no longer one.
    const current = users.byUuid(row.uuid);
    if (current?.password_hash !== row.password_hash || !current.enabled || !current.can_login) {
      throw unauthenticated();
    }
    bruteForce.recordSuccess(username);
    const principal = principalByUuid(row.uuid);
    if (!principal) throw unauthenticated();
    credentialCache.set(username, password, row.uuid);
    return principal;
  }

  async function principalFromAccessToken(token: string): Promise<Principal> {
    const claims = await accessTokens.verify(token);
    if (refreshTokens.isRevoked(claims.sid)) throw unauthenticated('The session of this token was revoked.');
    const principal = principalByUuid(claims.sub);
    if (!principal) throw unauthenticated('Invalid access token.');
    bruteForce.assertNotLocked(principal.username);
    return principal;
  }

  function principalFromRefreshToken(token: string): Principal {
    let userUuid: string;
    try {
      userUuid = refreshTokens.use(token, { rotate: false }).userUuid;
    } catch (error) {
      if (error instanceof OAuthError) throw unauthenticated(error.description);
      throw error;
    }
    const principal = principalByUuid(userUuid);
    if (!principal) throw unauthenticated('Invalid refresh token');
    bruteForce.assertNotLocked(principal.username);
    return principal;
  }

  function runAs(caller: Principal, username: string): Principal {
    const switched = switchPrincipal(caller, username, principalByUsername(username));
    bruteForce.assertNotLocked(switched.username);
    return switched;
  }

  const identity: IdentityProvider = {
    verifyPassword,
    principalFromAccessToken,
    principalFromRefreshToken,
    runAs,
  };
  const tokens = new TokenService({
    accessTokens,
    refreshTokens,
    authenticateClient: (id, secret) => clients.authenticate(id, secret),
    verifyPassword,
    principalByUuid,
    assertNotLocked: (username) => bruteForce.assertNotLocked(username),
  });

  return {
    ...identity,
    authenticator: createIamAuthenticator(identity),
    tokens,
    users,
    roles,
    groups,
    tenants,
    clients,
    bruteForce,
    issuer,
    realm: config.realm,
    principalByUsername,
    principalByUuid,

    async createUser(input) {
      const passwordHash = input.password === undefined ? null : await hasher.hash(input.password);
      const groupRows = (input.groups ?? []).map((g) => groups.byUuid(g) ?? groups.require({ name: g }));
      const tenantRows = (input.tenants ?? []).map((t) => tenants.byUuid(t) ?? tenants.require({ name: t }));
      const row = db.transaction(() => {
        const created = users.insert({
          username: input.username,
          passwordHash,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          attributes: input.attributes,
          canLogin: input.canLogin,
        });
        users.addRoles(created.uuid, [ROLE_USER, ...(input.roles ?? [])]);
        for (const group of groupRows) groups.addMember(group.uuid, created.uuid);
        for (const tenant of tenantRows) tenants.addMember(tenant.uuid, created.uuid);
        return created;
      })();
      return principalByUuid(row.uuid)!;
    },

    async setPassword(userUuid, password) {
      users.require({ uuid: userUuid });
      users.setPasswordHash(userUuid, password === null ? null : await hasher.hash(password));
      refreshTokens.revokeUser(userUuid);
    },

    setEnabled(userUuid, enabled) {
      const row = users.require({ uuid: userUuid });
      if (!enabled && (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME)) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be disabled.`);
      }
      users.setEnabled(userUuid, enabled);
      if (!enabled) refreshTokens.revokeUser(userUuid);
    },

    deleteUser(userUuid) {
      const row = users.require({ uuid: userUuid });
      if (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be deleted.`);
      }
      refreshTokens.revokeUser(userUuid);
      users.delete(userUuid);
    },

    jwks: () => ({ keys: [accessTokens.publicJwk] }),

    appAccessRole(appName) {
      const role = `CAN_APP_${appName.toUpperCase()}`;
      let exists = appRoleExists.get(role);
      if (exists === undefined) {
        exists = roles.byName(role) !== undefined;
        appRoleExists.set(role, exists);
      }
      return exists ? role : null;
    },
  };
}
