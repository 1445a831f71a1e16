// The memory of verified access tokens: used until expiry, never past it, forgotten when a session is revoked.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { AccessTokens } from './access-tokens';
import type { PublicJwk, SigningKey } from './signing-keys';

function testKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const publicJwk: PublicJwk = { kty: 'RSA', kid: 'test', alg: 'RS256', use: 'sig', n: jwk.n, e: jwk.e };
  return { kid: 'test', privateKey, publicKey, publicJwk };
}

const principal: Principal = {
  uuid: 'u-1',
  username: 'ada',
  displayName: 'Ada',
  email: 'ada@example.com',
  roles: new Set(['ROLE_USER']),
  groups: new Set(),
  tenants: new Set(),
};

describe('AccessTokens', () => {
  const key = testKey();
  let clock = Math.floor(Date.now() / 1000);
  const tokens = () =>
    new AccessTokens(
      async () => key,
      { issuer: 'iss', audience: 'aud', ttlSeconds: 300, clockToleranceSeconds: 5 },
      () => clock,
    );
  const session = (sessionId: string) => ({ clientId: 'cli', sessionId, scope: 'openid' });

  it('verifies a token once and answers it from memory until it expires, not after', async () => {
    const access = tokens();
    const { token } = await access.sign(principal, session('s-1'));
    const first = await access.verify(token);
    expect(await access.verify(token)).toBe(first);
    expect(access.rememberedCount).toBe(1);
    clock += 300 + 5;
    try {
      await expect(access.verify(token)).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
        details: { reason: 'expired' },
      });
      expect(access.rememberedCount).toBe(0);
    } finally {
      clock = Math.floor(Date.now() / 1000);
    }
  });

  it('forgets the tokens of a revoked session, and only those', async () => {
    const access = tokens();
    const revoked = (await access.sign(principal, session('s-revoked'))).token;
    const kept = (await access.sign(principal, session('s-kept'))).token;
    const [revokedClaims, keptClaims] = [await access.verify(revoked), await access.verify(kept)];
    access.forgetSession('s-revoked');
    expect(access.rememberedCount).toBe(1);
    expect(await access.verify(kept)).toBe(keptClaims);
    const again = await access.verify(revoked);
    expect(again).not.toBe(revokedClaims);
    expect(again).toEqual(revokedClaims);
    access.forgetAll();
    expect(access.rememberedCount).toBe(0);
  });
});
