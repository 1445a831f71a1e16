/**
 * Access tokens: JWTs signed with the instance key (RS256, pinned on verification), carrying Keycloak's claims.
 * Verification checks `kid`, signature, `typ`, `iss`, `aud`, `exp`, `nbf`; verified tokens are remembered until
 * they expire, so a Bearer request pays the RSA check once per token, not once per request. The memory is keyed
 * by the token's digest (no token is kept), bounded (the oldest entries go first), and forgets a session's
 * tokens when the session is revoked, here or on another instance (`forgetSession`, from the IAM change feed).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { ACCESS_TOKEN_ALGORITHM, type PublicJwk, type SigningKeySource } from './signing-keys';
import { tokenDigest } from './token-digest';

export interface AccessTokenClaims {
  /** The user's uuid. */
  sub: string;
  /** The refresh-token family (login session) the token belongs to. */
  sid: string;
  exp: number;
}

export interface AccessTokenOptions {
  issuer: string;
  audience: string;
  ttlSeconds: number;
  /** Seconds of clock skew tolerated on `exp` and `nbf`. */
  clockToleranceSeconds: number;
}

/** How many verified tokens are remembered; past that, the oldest are verified again when they come back. */
export const MAX_VERIFIED_TOKENS = 10_000;

export class AccessTokens {
  /** Verified claims by token digest, oldest first. */
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(
    /** Asked for at each use: the key may still be being made when the first request comes. */
    private readonly key: SigningKeySource,
    readonly options: AccessTokenOptions,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** The verification key, only for a token that names it: an unknown or missing `kid` is refused. */
  private readonly keyFor = async (header: { kid?: string }) => {
    const key = await this.key();
    if (header.kid !== key.kid) {
      throw new PipeworkError('UNAUTHENTICATED', 'Invalid access token.', { reason: 'invalid' });
    }
    return key.publicKey;
  };

  async publicJwk(): Promise<PublicJwk> {
    return (await this.key()).publicJwk;
  }

  /**
   * Signs a token for a principal in a login session. `notAfter` (epoch seconds, the session's end) caps the
   * expiry, so that no access token outlives its session and a revocation needs remembering no longer than that.
   */
  async sign(
    principal: Principal,
    session: { clientId: string; sessionId: string; scope: string; notAfter?: number },
  ): Promise<{ token: string; expiresIn: number }> {
    const key = await this.key();
    const now = this.nowSeconds();
    const exp = Math.min(now + this.options.ttlSeconds, session.notAfter ?? Infinity);
    const token = await new SignJWT({
      typ: 'Bearer',
      azp: session.clientId,
      sid: session.sessionId,
      session_state: session.sessionId,
      scope: session.scope,
      preferred_username: principal.username,
      name: principal.displayName,
      email: principal.email,
      realm_access: { roles: [...principal.roles].sort() },
    })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALGORITHM, typ: 'JWT', kid: key.kid })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(principal.uuid)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(exp)
      .sign(key.privateKey);
    return { token, expiresIn: Math.max(0, exp - now) };
  }

  /**
   * The claims of a valid token; UNAUTHENTICATED for anything else (`alg: none`, another algorithm, a `kid`
   * other than the instance key's, tampered, expired, foreign).
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    const digest = tokenDigest(token);
    const cached = this.verified.get(digest);
    const now = this.nowSeconds();
    if (cached) {
      if (cached.exp + this.options.clockToleranceSeconds > now) return cached;
      this.verified.delete(digest);
    }
    try {
      const { payload } = await jwtVerify(token, this.keyFor, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        typ: 'JWT',
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSeconds,
        currentDate: new Date(now * 1000),
        requiredClaims: ['exp', 'nbf', 'iat', 'sub', 'sid'],
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.exp !== 'number'
      ) {
        throw new PipeworkError('UNAUTHENTICATED', 'Invalid access token.');
      }
      const claims: AccessTokenClaims = { sub: payload.sub, sid: payload.sid, exp: payload.exp };
      if (this.verified.size >= MAX_VERIFIED_TOKENS) {
        this.verified.delete(this.verified.keys().next().value as string);
      }
      this.verified.set(digest, claims);
      return claims;
    } catch (error) {
      if (error instanceof PipeworkError) throw error;
      const expired = error instanceof joseErrors.JWTExpired;
      throw new PipeworkError(
        'UNAUTHENTICATED',
        expired ? 'The access token has expired.' : 'Invalid access token.',
        {
          reason: expired ? 'expired' : 'invalid',
        },
      );
    }
  }

  /** Forgets the verified tokens of a revoked session: the next use of one is checked in full again. */
  forgetSession(sessionId: string): void {
    for (const [digest, claims] of this.verified) {
      if (claims.sid === sessionId) this.verified.delete(digest);
    }
  }

  /** Forgets every verified token (after a resync with the other instances). */
  forgetAll(): void {
    this.verified.clear();
  }

  /** How many verified tokens are remembered. */
  get rememberedCount(): number {
    return this.verified.size;
  }
}
