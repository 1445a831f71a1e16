/**
 * The key pair that signs access tokens: made at first start and kept in SQLite, so tokens stay valid across
 * restarts. RS256 only (Keycloak's default); the algorithm is pinned where tokens are verified.
 */
import {
  type KeyObject,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
} from 'node:crypto';
import type { SqliteDatabase } from '../db';

export const ACCESS_TOKEN_ALGORITHM = 'RS256';

export interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: string;
  n: string;
  e: string;
}

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

/** The newest stored key, or a new one stored now. */
export function loadOrCreateSigningKey(db: SqliteDatabase): SigningKey {
  const row = db
    .prepare<[string], KeyRow>(
      'SELECT kid, private_jwk, public_jwk FROM iam_signing_key WHERE alg = ? ORDER BY created DESC LIMIT 1',
    )
    .get(ACCESS_TOKEN_ALGORITHM);
  if (row) {
    return {
      kid: row.kid,
      privateKey: createPrivateKey({ key: JSON.parse(row.private_jwk) as never, format: 'jwk' }),
      publicKey: createPublicKey({ key: JSON.parse(row.public_jwk) as never, format: 'jwk' }),
      publicJwk: JSON.parse(row.public_jwk) as PublicJwk,
    };
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
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
  db.prepare(
    'INSERT INTO iam_signing_key (kid, alg, private_jwk, public_jwk, created) VALUES (?, ?, ?, ?, ?)',
  ).run(
    kid,
    ACCESS_TOKEN_ALGORITHM,
    JSON.stringify(privateKey.export({ format: 'jwk' })),
    JSON.stringify(publicJwk),
    Date.now(),
  );
  return { kid, privateKey, publicKey, publicJwk };
}
