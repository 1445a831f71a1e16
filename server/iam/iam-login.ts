/**
 * Signing in: the password check (remembered credentials, the brute-force guard before and after the hash, a
 * password changed meanwhile), the principal of an access, refresh or API token, run-as, and the token
 * service that issues tokens on a checked password.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { AccessTokens } from '../auth/access-tokens';
import { ApiTokenStore } from '../auth/api-tokens';
import type { IdentityProvider } from '../auth/iam-authenticator';
import { OAuthError } from '../auth/oauth-error';
import type { RefreshTokenStore } from '../auth/refresh-tokens';
import { switchPrincipal } from '../auth/run-as';
import { TokenService } from '../auth/token-service';
import type { BruteForceGuard } from './brute-force-guard';
import type { ClientRegistry } from './client-registry';
import type { CredentialCache } from './credential-cache';
import type { PasswordHasher } from './password-hasher';
import type { PrincipalResolver } from './principal-resolver';
import type { UserDirectory } from './user-directory';

export interface LoginDeps {
  users: UserDirectory;
  resolver: PrincipalResolver;
  hasher: PasswordHasher;
  credentialCache: CredentialCache;
  bruteForce: BruteForceGuard;
  clients: ClientRegistry;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokenStore;
  apiTokens: ApiTokenStore;
}

export interface Login {
  identity: IdentityProvider;
  tokens: TokenService;
}

export function createLogin(deps: LoginDeps): Login {
  const {
    users,
    resolver,
    hasher,
    credentialCache,
    bruteForce,
    clients,
    accessTokens,
    refreshTokens,
    apiTokens,
  } = deps;
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
  return { identity, tokens };
}
