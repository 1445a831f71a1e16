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

/**
 * The newest stored key, or a new one stored now. Run it under the IAM's start-up lock: instances starting
 * at once then sign with the same key.
 */
export async function loadOrCreateSigningKey(sql: SqlPort): Promise<SigningKey> {
  const row = await sql.get<KeyRow>(NEWEST_KEY, [ACCESS_TOKEN_ALGORITHM]);
  if (row) return keyOf(row);
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
  await sql.run(
    'INSERT INTO iam_signing_key (kid, alg, private_jwk, public_jwk, created) VALUES ($1, $2, $3, $4, $5)',
    [
      kid,
      ACCESS_TOKEN_ALGORITHM,
      JSON.stringify(privateKey.export({ format: 'jwk' })),
      JSON.stringify(publicJwk),
      Date.now(),
    ],
  );
  return { kid, privateKey, publicKey, publicJwk };
}
