/**
 * Rotating refresh tokens: opaque random values, stored only as SHA-256 digests, grouped in families (one per
 * login). Each use rotates the token; presenting a rotated one again revokes the whole family, which is
 * recorded in the database and so holds across restarts and on every instance: a token is spent inside one
 * transaction with its row locked, so two instances presented the same token at once rotate it once and treat
 * the second presentation as reuse.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type SqlPort, type SqlSteps, get, run } from '../db/sql';
import { OAuthError } from './oauth-error';
import { tokenDigest } from './token-digest';

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

const invalid = (why = 'Invalid refresh token') => new OAuthError('invalid_grant', why, 400);

export class RefreshTokenStore {
  private readonly revoked = new Set<string>();

  constructor(
    private readonly sql: SqlPort,
    private readonly policy: RefreshTokenPolicy = DEFAULT_REFRESH_POLICY,
    private readonly now: () => number = Date.now,
    /** Told when a family is revoked here, so other instances refuse its access tokens too. */
    private readonly published: (familyId: string) => void = () => {},
  ) {}

  /** Loads the revoked families whose access tokens may still be presented (at start, and after a resync). */
  async load(): Promise<void> {
    const rows = await this.sql.all<{ family_id: string }>(
      'SELECT family_id FROM iam_refresh_family WHERE revoked IS NOT NULL AND expires > $1',
      [this.now() - REVOCATION_MARGIN_MS],
    );
    this.revoked.clear();
    for (const row of rows) this.revoked.add(row.family_id);
  }

  /** Whether a family was revoked (its access tokens are refused too). */
  isRevoked(familyId: string): boolean {
    return this.revoked.has(familyId);
  }

  /** Records a revocation made on another instance. */
  revokedElsewhere(familyId: string): void {
    this.revoked.add(familyId);
  }

  /** Starts a family at login and returns its first token. */
  startFamily(userUuid: string, clientId: string): Promise<RefreshGrant> {
    const familyId = randomUUID();
    const now = this.now();
    const familyExpires = now + this.policy.familyMaxSeconds * 1000;
    return this.sql.transaction(() =>
      this.startFamilySteps({ familyId, userUuid, clientId, now, familyExpires }),
    );
  }

  private *startFamilySteps(family: {
    familyId: string;
    userUuid: string;
    clientId: string;
    now: number;
    familyExpires: number;
  }): SqlSteps<RefreshGrant> {
    yield* run(
      'INSERT INTO iam_refresh_family (family_id, user_uuid, client_id, created, expires) VALUES ($1, $2, $3, $4, $5)',
      [family.familyId, family.userUuid, family.clientId, family.now, family.familyExpires],
    );
    return yield* this.mintSteps(family.familyId, family.userUuid, family.clientId, family.familyExpires);
  }

  private *mintSteps(
    familyId: string,
    userUuid: string,
    clientId: string,
    familyExpires: number,
  ): SqlSteps<RefreshGrant> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expires = Math.min(now + this.policy.ttlSeconds * 1000, familyExpires);
    yield* run(
      'INSERT INTO iam_refresh_token (token_hash, family_id, issued, expires) VALUES ($1, $2, $3, $4)',
      [tokenDigest(token), familyId, now, expires],
    );
    return {
      token,
      familyId,
      userUuid,
      clientId,
      expiresIn: Math.max(0, Math.floor((expires - now) / 1000)),
      familyExpires,
    };
  }

  /** The token's row with its family's, locked on PostgreSQL until the transaction ends. */
  private *lookupSteps(token: string): SqlSteps<TokenRow | undefined> {
    return yield* get<TokenRow>(
      `SELECT t.family_id, t.expires, t.rotated, f.user_uuid, f.client_id, f.expires AS family_expires, f.revoked
       FROM iam_refresh_token t JOIN iam_refresh_family f ON f.family_id = t.family_id WHERE t.token_hash = $1
       ${this.sql.dialect.forUpdate}`,
      [tokenDigest(token)],
    );
  }

  /**
   * Checks a token and returns its grant; a rotated token revokes its family. With `rotate`, the token is
   * used up and the grant carries its successor.
   */
  async use(token: string, options: { rotate: boolean; clientId?: string }): Promise<RefreshGrant> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw invalid();
    // Decide inside one transaction, throw after it: a revocation must commit even though the call fails.
    const outcome = await this.sql.transaction(() => this.useSteps(token, options));
    if ('error' in outcome) {
      if (outcome.reusedFamily) await this.revokeFamily(outcome.reusedFamily);
      throw outcome.error;
    }
    return outcome;
  }

  private *useSteps(
    token: string,
    options: { rotate: boolean; clientId?: string },
  ): SqlSteps<RefreshGrant | { error: OAuthError; reusedFamily?: string }> {
    const row = yield* this.lookupSteps(token);
    const now = this.now();
    if (!row) return { error: invalid() };
    if (row.revoked !== null) return { error: invalid('Token is not active') };
    if (row.rotated !== null) {
      return { error: invalid('Maximum allowed refresh token reuse exceeded'), reusedFamily: row.family_id };
    }
    const expires = Number(row.expires);
    const familyExpires = Number(row.family_expires);
    if (expires <= now || familyExpires <= now) return { error: invalid('Token is not active') };
    if (options.clientId !== undefined && options.clientId !== row.client_id) {
      return { error: invalid("Invalid refresh token. Token client and authorized client don't match") };
    }
    if (!options.rotate) {
      return {
        token,
        familyId: row.family_id,
        userUuid: row.user_uuid,
        clientId: row.client_id,
        expiresIn: Math.floor((expires - now) / 1000),
        familyExpires,
      };
    }
    yield* run('UPDATE iam_refresh_token SET rotated = $1 WHERE token_hash = $2', [now, tokenDigest(token)]);
    return yield* this.mintSteps(row.family_id, row.user_uuid, row.client_id, familyExpires);
  }

  /** Ends a family (reuse detected, logout, user deleted). */
  async revokeFamily(familyId: string): Promise<void> {
    await this.sql.run(
      'UPDATE iam_refresh_family SET revoked = $1 WHERE family_id = $2 AND revoked IS NULL',
      [this.now(), familyId],
    );
    this.revoked.add(familyId);
    this.published(familyId);
  }

  /** Logout: ends the family of a token, whatever its state. */
  async revokeByToken(token: string): Promise<boolean> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
    const row = await this.sql.get<{ family_id: string }>(
      'SELECT family_id FROM iam_refresh_token WHERE token_hash = $1',
      [tokenDigest(token)],
    );
    if (!row) return false;
    await this.revokeFamily(row.family_id);
    return true;
  }

  /** Ends every family of a user (password change, delete, disable), in one statement. */
  async revokeUser(userUuid: string): Promise<void> {
    const families = await this.sql.all<{ family_id: string }>(
      `UPDATE iam_refresh_family SET revoked = $1 WHERE user_uuid = $2 AND revoked IS NULL
       RETURNING family_id`,
      [this.now(), userUuid],
    );
    for (const { family_id: familyId } of families) {
      this.revoked.add(familyId);
      this.published(familyId);
    }
  }

  /** Deletes families (and their tokens) that ended long enough ago that no access token of theirs is valid. */
  async purgeExpired(): Promise<void> {
    await this.sql.run('DELETE FROM iam_refresh_family WHERE expires <= $1', [
      this.now() - REVOCATION_MARGIN_MS,
    ]);
  }
}
