/**
 * The key pair that signs access tokens: made once, at the first start, and kept in the database, so tokens
 * stay valid across restarts. RS256 only (Keycloak's default); the algorithm is pinned where tokens are verified.
 * Making an RSA key takes a few hundred milliseconds of CPU, so it is made off the main thread and off the start
 * path (`signingKeySource`): start does not wait for it, only the first token that needs it does.
 */
import { type KeyObject, createHash, createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { PublicJwk } from '../../shared/api';
import type { SqlPort } from '../db/sql';

export const ACCESS_TOKEN_ALGORITHM = 'RS256';

export type { PublicJwk };

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: PublicJwk;
}

interface KeyRow {
  kid: string;
  private_jwk: string;
  public_jwk: string;
}

const NEWEST_KEY = `SELECT kid, private_jwk, public_jwk FROM iam_signing_key WHERE alg = $1
  ORDER BY created DESC, kid LIMIT 1`;

function keyOf(row: KeyRow): SigningKey {
  return {
    kid: row.kid,
    privateKey: createPrivateKey({ key: JSON.parse(row.private_jwk) as never, format: 'jwk' }),
    publicKey: createPublicKey({ key: JSON.parse(row.public_jwk) as never, format: 'jwk' }),
    publicJwk: JSON.parse(row.public_jwk) as PublicJwk,
  };
}

/** The newest stored key, or null before the first one is stored. */
export async function loadSigningKey(sql: SqlPort): Promise<SigningKey | null> {
  const row = await sql.get<KeyRow>(NEWEST_KEY, [ACCESS_TOKEN_ALGORITHM]);
  return row ? keyOf(row) : null;
}

/** A new key pair, made on the thread pool. */
async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const exported = publicKey.export({ format: 'jwk' }) as { n: string; e: string; kty: string };
  // RFC 7638 thumbprint as the key id.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: exported.e, kty: exported.kty, n: exported.n }))
    .digest('base64url');
  const publicJwk: PublicJwk = {
    kty: 'RSA',
    kid,
    alg: ACCESS_TOKEN_ALGORITHM,
    use: 'sig',
    n: exported.n,
    e: exported.e,
  };
  return { kid, privateKey, publicKey, publicJwk };
}

/**
 * The stored key, or a new one stored now. The new pair is made outside the lock; under it the store is read
 * again, so that when instances (or calls) make keys at once, the first stored wins and all sign with it.
 */
export async function loadOrCreateSigningKey(sql: SqlPort): Promise<SigningKey> {
  const stored = await loadSigningKey(sql);
  if (stored) return stored;
  const made = await newSigningKey();
  return sql.exclusive('iam.signing-key', async () => {
    const first = await loadSigningKey(sql);
    if (first) return first;
    await sql.run(
      'INSERT INTO iam_signing_key (kid, alg, private_jwk, public_jwk, created) VALUES ($1, $2, $3, $4, $5)',
      [
        made.kid,
        ACCESS_TOKEN_ALGORITHM,
        JSON.stringify(made.privateKey.export({ format: 'jwk' })),
        JSON.stringify(made.publicJwk),
        Date.now(),
      ],
    );
    return made;
  });
}

/** Where the signing key comes from once it is there: asked for by each use, answered from memory after the first. */
export type SigningKeySource = () => Promise<SigningKey>;

/**
 * The key as a source: the stored one (`stored`, read at start) at once, otherwise made and stored in the
 * background from now on. A failure is not remembered: the next use tries again.
 */
export function signingKeySource(sql: SqlPort, stored: SigningKey | null): SigningKeySource {
  let key: Promise<SigningKey> | null = stored ? Promise.resolve(stored) : null;
  const source = () => {
    key ??= loadOrCreateSigningKey(sql).catch((error: unknown) => {
      key = null;
      throw error;
    });
    return key;
  };
  if (!stored) void source().catch(() => undefined);
  return source;
}
