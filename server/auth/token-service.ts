/** The OAuth grants behind the token endpoint and `iam.token*`: password and refresh_token, Keycloak-shaped. */
import type { TokenResponse } from '../../shared/api';
import type { Principal } from '../../shared/auth';
import { isPipeworkError } from '../../shared/errors';
import type { AccessTokens } from './access-tokens';
import { OAuthError, invalidUserCredentials } from './oauth-error';
import { type ApiTokenGrant, ApiTokenStore, apiTokenSessionId } from './api-tokens';
import type { RefreshGrant, RefreshTokenStore } from './refresh-tokens';

export type { TokenResponse };

export interface TokenServiceDeps {
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokenStore;
  apiTokens: ApiTokenStore;
  authenticateClient(clientId: string, secret: string | undefined): Promise<boolean>;
  verifyPassword(username: string, password: string, ip?: string): Promise<Principal>;
  principalByUuid(uuid: string): Promise<Principal | null>;
  /** Throws TOO_MANY_REQUESTS while the user is locked. */
  assertNotLocked(username: string): Promise<void>;
}

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

const DEFAULT_SCOPE = 'openid profile email';

/** Turns a lock (TOO_MANY_REQUESTS) or bad credentials (UNAUTHENTICATED) into the OAuth answer. */
function asOAuthError(error: unknown): unknown {
  if (!isPipeworkError(error)) return error;
  if (error.code === 'TOO_MANY_REQUESTS') {
    const retry = Number(error.details.retryAfterSeconds) || undefined;
    return new OAuthError('invalid_grant', 'Account temporarily locked; try again later', 429, retry);
  }
  if (error.code === 'UNAUTHENTICATED') return invalidUserCredentials();
  return error;
}

export class TokenService {
  constructor(private readonly deps: TokenServiceDeps) {}

  private async checkClient({ clientId, clientSecret }: ClientCredentials): Promise<string> {
    if (!clientId) throw new OAuthError('invalid_request', 'Missing form parameter: client_id', 400);
    if (!(await this.deps.authenticateClient(clientId, clientSecret))) {
      throw new OAuthError('invalid_client', 'Invalid client or Invalid client credentials', 401);
    }
    return clientId;
  }

  private async respond(principal: Principal, grant: RefreshGrant, scope: string): Promise<TokenResponse> {
    const { accessTokens } = this.deps;
    const access = await accessTokens.sign(principal, {
      clientId: grant.clientId,
      sessionId: grant.familyId,
      scope,
      notAfter: Math.floor(grant.familyExpires / 1000),
    });
    return {
      access_token: access.token,
      expires_in: access.expiresIn,
      refresh_expires_in: grant.expiresIn,
      refresh_token: grant.token,
      token_type: 'Bearer',
      'not-before-policy': 0,
      session_state: grant.familyId,
      scope,
    };
  }

  /** `grant_type=password`: a new login session. */
  async passwordGrant(
    input: ClientCredentials & { username?: string; password?: string; scope?: string; ip?: string },
  ): Promise<TokenResponse> {
    const clientId = await this.checkClient(input);
    if (!input.username) throw new OAuthError('invalid_request', 'Missing parameter: username', 400);
    if (input.password === undefined)
      throw new OAuthError('invalid_request', 'Missing parameter: password', 400);
    let principal: Principal;
    try {
      principal = await this.deps.verifyPassword(input.username, input.password, input.ip);
    } catch (error) {
      throw asOAuthError(error);
    }
    const grant = await this.deps.refreshTokens.startFamily(principal.uuid, clientId);
    return this.respond(principal, grant, input.scope?.trim() || DEFAULT_SCOPE);
  }

  /** `grant_type=refresh_token`: rotates the refresh token; reuse of an old one ends the session. */
  async refreshGrant(
    input: ClientCredentials & { refreshToken?: string; scope?: string },
  ): Promise<TokenResponse> {
    const clientId = await this.checkClient(input);
    if (!input.refreshToken) throw new OAuthError('invalid_request', 'Missing parameter: refresh_token', 400);
    if (ApiTokenStore.isApiToken(input.refreshToken)) {
      return this.apiTokenGrant(input.refreshToken, clientId, input.scope?.trim() || DEFAULT_SCOPE);
    }
    const { refreshTokens } = this.deps;
    // Check the user before spending the token: a refusal (a lock) must leave the session usable later.
    const current = await refreshTokens.use(input.refreshToken, { rotate: false, clientId });
    const principal = await this.deps.principalByUuid(current.userUuid);
    if (!principal) {
      await refreshTokens.revokeFamily(current.familyId);
      throw new OAuthError('invalid_grant', 'Invalid refresh token', 400);
    }
    try {
      await this.deps.assertNotLocked(principal.username);
    } catch (error) {
      throw asOAuthError(error);
    }
    const grant = await refreshTokens.use(input.refreshToken, { rotate: true, clientId });
    return this.respond(principal, grant, input.scope?.trim() || DEFAULT_SCOPE);
  }

  /**
   * An API token in place of a refresh token: a fresh access token whose session is the API token (revoking
   * it ends them too); the API token itself is not rotated (an offline token) and comes back as it was.
   */
  private async apiTokenGrant(apiToken: string, clientId: string, scope: string): Promise<TokenResponse> {
    let principal: Principal;
    let grant: ApiTokenGrant;
    try {
      grant = await this.deps.apiTokens.verify(apiToken);
      const found = await this.deps.principalByUuid(grant.userUuid);
      if (!found) throw new OAuthError('invalid_grant', 'Invalid refresh token', 400);
      await this.deps.assertNotLocked(found.username);
      principal = found;
    } catch (error) {
      if (isPipeworkError(error) && error.code === 'UNAUTHENTICATED') {
        throw new OAuthError('invalid_grant', 'Token is not active', 400);
      }
      throw asOAuthError(error);
    }
    const sessionId = apiTokenSessionId(grant.uuid);
    const access = await this.deps.accessTokens.sign(principal, {
      clientId,
      sessionId,
      scope,
      notAfter: Math.floor(grant.expires / 1000),
    });
    return {
      access_token: access.token,
      expires_in: access.expiresIn,
      refresh_expires_in: grant.expiresIn,
      refresh_token: apiToken,
      token_type: 'Bearer',
      'not-before-policy': 0,
      session_state: sessionId,
      scope,
    };
  }

  /** Ends the session of a refresh token (`iam.token.logout`). */
  logout(refreshToken: string): Promise<boolean> {
    return this.deps.refreshTokens.revokeByToken(refreshToken);
  }
}
