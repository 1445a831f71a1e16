/**
 * Long-lived API tokens for scripts and CI (`iam.apitoken`): opaque random values shown once at creation and
 * stored only as SHA-256 digests (256 random bits need no slow hash). A token names its owner; it is refused
 * once revoked, expired, or when its owner is disabled or cannot log in. Revocations are also kept in memory
 * as session ids (`apitoken:<uuid>`), so access tokens obtained with a revoked API token are refused at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import type { SqlPort } from '../db/sql';
import { tokenDigest } from './token-digest';

/** Every API token starts with this: tells it apart from a refresh token, and secret scanners can find it. */
export const API_TOKEN_PREFIX = 'pwapi_';
/** The session id access tokens obtained with an API token carry. */
export const apiTokenSessionId = (uuid: string) => `apitoken:${uuid}`;

export const DEFAULT_API_TOKEN_DAYS = 90;
export const MAX_API_TOKEN_DAYS = 3650;
/** Tokens one user may hold at once (revoked and expired ones not counted). */
export const MAX_API_TOKENS_PER_USER = 100;

export interface ApiTokenInfo {
  uuid: string;
  name: string;
  username: string;
  created: number;
  expires: number;
  lastUsed: number | null;
}

export interface ApiTokenGrant {
  uuid: string;
  userUuid: string;
  /** Epoch milliseconds. */
  expires: number;
  /** Seconds until it expires. */
  expiresIn: number;
}

interface TokenRow {
  uuid: string;
  user_uuid: string;
  expires: number;
  revoked: number | null;
  enabled: number;
  can_login: number;
}

const looksLikeApiToken = (token: string) =>
  typeof token === 'string' && token.startsWith(API_TOKEN_PREFIX) && token.length <= 200;

export class ApiTokenStore {
  constructor(
    private readonly sql: SqlPort,
    private readonly now: () => number = Date.now,
  ) {}

  static isApiToken(token: string): boolean {
    return looksLikeApiToken(token);
  }

  /** The session ids of revoked tokens that have not expired yet (for the revocation set in memory). */
  async revokedSessionIds(): Promise<string[]> {
    const rows = await this.sql.all<{ uuid: string }>(
      'SELECT uuid FROM iam_api_token WHERE revoked IS NOT NULL AND expires > $1',
      [this.now()],
    );
    return rows.map((row) => apiTokenSessionId(row.uuid));
  }

  /** Creates a token; the returned text is the only time it exists outside the caller's hands. */
  async create(
    userUuid: string,
    options: { name?: string; days?: number } = {},
  ): Promise<ApiTokenInfo & { token: string }> {
    const days = options.days ?? DEFAULT_API_TOKEN_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > MAX_API_TOKEN_DAYS) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `An API token lives 1 to ${MAX_API_TOKEN_DAYS} days, not ${String(options.days)}.`,
        { parameter: 'expiresInDays' },
      );
    }
    const name = (options.name ?? 'api token').slice(0, 200);
    const now = this.now();
    const active = await this.sql.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM iam_api_token WHERE user_uuid = $1 AND revoked IS NULL AND expires > $2',
      [userUuid, now],
    );
    if (Number(active?.n ?? 0) >= MAX_API_TOKENS_PER_USER) {
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `A user holds at most ${MAX_API_TOKENS_PER_USER} API tokens; revoke one first.`,
        { limit: 'apiTokens' },
      );
    }
    const uuid = randomUUID();
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const expires = now + days * 86_400_000;
    await this.sql.run(
      `INSERT INTO iam_api_token (uuid, token_hash, user_uuid, name, created, expires)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [uuid, tokenDigest(token), userUuid, name, now, expires],
    );
    const owner = await this.sql.get<{ username: string }>('SELECT username FROM iam_user WHERE uuid = $1', [
      userUuid,
    ]);
    return { uuid, token, name, username: owner?.username ?? '', created: now, expires, lastUsed: null };
  }

  /** Checks a presented token: UNAUTHENTICATED unless it is active and its owner may log in. */
  async verify(token: string): Promise<ApiTokenGrant> {
    const refused = () => new PipeworkError('UNAUTHENTICATED', 'Invalid, expired or revoked API token.');
    if (!looksLikeApiToken(token)) throw refused();
    const row = await this.sql.get<TokenRow>(
      `SELECT t.uuid, t.user_uuid, t.expires, t.revoked, u.enabled, u.can_login
       FROM iam_api_token t JOIN iam_user u ON u.uuid = t.user_uuid WHERE t.token_hash = $1`,
      [tokenDigest(token)],
    );
    const now = this.now();
    if (!row || row.revoked !== null || Number(row.expires) <= now) throw refused();
    if (!Number(row.enabled) || !Number(row.can_login)) throw refused();
    // Last use at minute precision: one write a minute per token at most, not one per request.
    await this.sql.run(
      'UPDATE iam_api_token SET last_used = $1 WHERE uuid = $2 AND (last_used IS NULL OR last_used < $3)',
      [now, row.uuid, now - 60_000],
    );
    const expires = Number(row.expires);
    return {
      uuid: row.uuid,
      userUuid: row.user_uuid,
      expires,
      expiresIn: Math.floor((expires - now) / 1000),
    };
  }

  /** The tokens of one user, or of everyone (`userUuid` undefined), newest first; never the token itself. */
  async list(userUuid?: string): Promise<ApiTokenInfo[]> {
    const rows = await this.sql.all<{
      uuid: string;
      name: string;
      username: string;
      created: number;
      expires: number;
      last_used: number | null;
    }>(
      `SELECT t.uuid, t.name, u.username, t.created, t.expires, t.last_used
       FROM iam_api_token t JOIN iam_user u ON u.uuid = t.user_uuid
       WHERE t.revoked IS NULL AND t.expires > $1 ${userUuid === undefined ? '' : 'AND t.user_uuid = $2'}
       ORDER BY t.created DESC, t.uuid`,
      userUuid === undefined ? [this.now()] : [this.now(), userUuid],
    );
    return rows.map((row) => ({
      uuid: row.uuid,
      name: row.name,
      username: row.username,
      created: Number(row.created),
      expires: Number(row.expires),
      lastUsed: row.last_used === null ? null : Number(row.last_used),
    }));
  }

  /** The owner of an active token, to check who may revoke it. */
  async ownerOf(uuid: string): Promise<string | undefined> {
    const row = await this.sql.get<{ user_uuid: string }>(
      'SELECT user_uuid FROM iam_api_token WHERE uuid = $1 AND revoked IS NULL',
      [uuid],
    );
    return row?.user_uuid;
  }

  /** Revokes a token; false when there was no active token with this uuid. */
  async revoke(uuid: string): Promise<boolean> {
    const result = await this.sql.run(
      'UPDATE iam_api_token SET revoked = $1 WHERE uuid = $2 AND revoked IS NULL',
      [this.now(), uuid],
    );
    return result.changes > 0;
  }
}
