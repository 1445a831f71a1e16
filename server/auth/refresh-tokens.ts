/**
 * Rotating refresh tokens: opaque random values, stored only as SHA-256 digests, grouped in families (one per
 * login). Each use rotates the token; presenting a rotated one again revokes the whole family, which is
 * recorded in SQLite and so holds across restarts.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../db';
import { OAuthError } from './oauth-error';

export interface RefreshTokenPolicy {
  /** Lifetime of one refresh token (Keycloak's SSO idle time). */
  ttlSeconds: number;
  /** Lifetime of a family: no rotation extends a login beyond it (Keycloak's SSO max). */
  familyMaxSeconds: number;
}

export const DEFAULT_REFRESH_POLICY: RefreshTokenPolicy = { ttlSeconds: 1800, familyMaxSeconds: 10 * 3600 };

export interface RefreshGrant {
  token: string;
  familyId: string;
  userUuid: string;
  clientId: string;
  /** Seconds until this refresh token expires. */
  expiresIn: number;
  /** When the family (login session) ends, epoch milliseconds: no token of it may outlive this. */
  familyExpires: number;
}

interface TokenRow {
  family_id: string;
  expires: number;
  rotated: number | null;
  user_uuid: string;
  client_id: string;
  family_expires: number;
  revoked: number | null;
}

/**
 * How long after its end a revoked family is still remembered: covers the clock tolerance of access-token
 * checks (access tokens never outlive their family), also across a restart.
 */
const REVOCATION_MARGIN_MS = 60_000;

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
const invalid = (why = 'Invalid refresh token') => new OAuthError('invalid_grant', why, 400);

export class RefreshTokenStore {
  private readonly revoked = new Set<string>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly policy: RefreshTokenPolicy = DEFAULT_REFRESH_POLICY,
    private readonly now: () => number = Date.now,
  ) {
    const rows = db
      .prepare<[number], { family_id: string }>(
        'SELECT family_id FROM iam_refresh_family WHERE revoked IS NOT NULL AND expires > ?',
      )
      .all(this.now() - REVOCATION_MARGIN_MS);
    for (const row of rows) this.revoked.add(row.family_id);
  }

  /** Whether a family was revoked (its access tokens are refused too). */
  isRevoked(familyId: string): boolean {
    return this.revoked.has(familyId);
  }

  /** Starts a family at login and returns its first token. */
  startFamily(userUuid: string, clientId: string): RefreshGrant {
    const familyId = randomUUID();
    const now = this.now();
    this.db
      .prepare(
        'INSERT INTO iam_refresh_family (family_id, user_uuid, client_id, created, expires) VALUES (?, ?, ?, ?, ?)',
      )
      .run(familyId, userUuid, clientId, now, now + this.policy.familyMaxSeconds * 1000);
    return this.mint(familyId, userUuid, clientId, now + this.policy.familyMaxSeconds * 1000);
  }

  private mint(familyId: string, userUuid: string, clientId: string, familyExpires: number): RefreshGrant {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expires = Math.min(now + this.policy.ttlSeconds * 1000, familyExpires);
    this.db
      .prepare('INSERT INTO iam_refresh_token (token_hash, family_id, issued, expires) VALUES (?, ?, ?, ?)')
      .run(digest(token), familyId, now, expires);
    return {
      token,
      familyId,
      userUuid,
      clientId,
      expiresIn: Math.max(0, Math.floor((expires - now) / 1000)),
      familyExpires,
    };
  }

  private lookup(token: string): TokenRow | undefined {
    return this.db
      .prepare<[string], TokenRow>(
        `SELECT t.family_id, t.expires, t.rotated, f.user_uuid, f.client_id, f.expires AS family_expires, f.revoked
         FROM iam_refresh_token t JOIN iam_refresh_family f ON f.family_id = t.family_id WHERE t.token_hash = ?`,
      )
      .get(digest(token));
  }

  /**
   * Checks a token and returns its grant; a rotated token revokes its family. With `rotate`, the token is
   * used up and the grant carries its successor.
   */
  use(token: string, options: { rotate: boolean; clientId?: string }): RefreshGrant {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw invalid();
    // Decide inside one transaction, throw after it: a revocation must commit even though the call fails.
    const outcome = this.db
      .transaction((): RefreshGrant | { error: OAuthError; reusedFamily?: string } => {
        const row = this.lookup(token);
        const now = this.now();
        if (!row) return { error: invalid() };
        if (row.revoked !== null) return { error: invalid('Token is not active') };
        if (row.rotated !== null) {
          return {
            error: invalid('Maximum allowed refresh token reuse exceeded'),
            reusedFamily: row.family_id,
          };
        }
        if (row.expires <= now || row.family_expires <= now) return { error: invalid('Token is not active') };
        if (options.clientId !== undefined && options.clientId !== row.client_id) {
          return { error: invalid("Invalid refresh token. Token client and authorized client don't match") };
        }
        if (!options.rotate) {
          const expiresIn = Math.floor((row.expires - now) / 1000);
          return {
            token,
            familyId: row.family_id,
            userUuid: row.user_uuid,
            clientId: row.client_id,
            expiresIn,
            familyExpires: row.family_expires,
          };
        }
        this.db
          .prepare('UPDATE iam_refresh_token SET rotated = ? WHERE token_hash = ?')
          .run(now, digest(token));
        return this.mint(row.family_id, row.user_uuid, row.client_id, row.family_expires);
      })
      .immediate();
    if ('error' in outcome) {
      if (outcome.reusedFamily) this.revokeFamily(outcome.reusedFamily);
      throw outcome.error;
    }
    return outcome;
  }

  /** Ends a family (reuse detected, logout, user deleted). */
  revokeFamily(familyId: string): void {
    this.db
      .prepare('UPDATE iam_refresh_family SET revoked = ? WHERE family_id = ? AND revoked IS NULL')
      .run(this.now(), familyId);
    this.revoked.add(familyId);
  }

  /** Logout: ends the family of a token, whatever its state. */
  revokeByToken(token: string): boolean {
    const row = this.lookup(token);
    if (!row) return false;
    this.revokeFamily(row.family_id);
    return true;
  }

  /** Ends every family of a user (password change, delete, disable). */
  revokeUser(userUuid: string): void {
    const families = this.db
      .prepare<[string], { family_id: string }>(
        'SELECT family_id FROM iam_refresh_family WHERE user_uuid = ? AND revoked IS NULL',
      )
      .all(userUuid);
    for (const f of families) this.revokeFamily(f.family_id);
  }

  /** Deletes families (and their tokens) that ended long enough ago that no access token of theirs is valid. */
  purgeExpired(): void {
    this.db
      .prepare('DELETE FROM iam_refresh_family WHERE expires <= ?')
      .run(this.now() - REVOCATION_MARGIN_MS);
  }
}
