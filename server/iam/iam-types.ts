/** What the IAM service offers and what it is made with (`createIamService` in iam-service.ts wires it). */
import type { Principal } from '../../shared/auth';
import type { ApiTokenStore } from '../auth/api-tokens';
import type { Authenticator } from '../auth/authenticator';
import type { IdentityProvider } from '../auth/iam-authenticator';
import type { RefreshTokenPolicy } from '../auth/refresh-tokens';
import type { PublicJwk } from '../auth/signing-keys';
import type { TokenService } from '../auth/token-service';
import type { BuiltInRole } from './built-in-roles';
import type { BruteForceGuard, BruteForcePolicy } from './brute-force-guard';
import type { ClientRegistry } from './client-registry';
import type { GroupDirectory } from './group-directory';
import type { IamChangeFeed } from './iam-change-feed';
import type { PasswordHashCost, PasswordHasher } from './password-hasher';
import type { RoleDirectory } from './role-directory';
import type { TenantDirectory } from './tenant-directory';
import type { SyncSqlReader, SyncUserReader } from './sync-user-reader';
import type { UserDirectory } from './user-directory';

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
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /** The role that guards an app (`CAN_APP_<APP>`), when one exists; apps without one are open. */
  appAccessRole(appName: string): string | null;
  /** Stops hearing other instances' changes. */
  close(): void;
}
