// The token endpoint over HTTP, and every way a Bearer token is refused.
import { SignJWT, UnsecuredJWT, decodeProtectedHeader, exportJWK } from 'jose';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, startIamTestServer, TOKEN_PATH, tokenRequest } from '../iam/test-iam';
import { loadOrCreateSigningKey } from './signing-keys';

let server: IamTestServer;
let clock = Date.now();
const TOKEN = TOKEN_PATH;

beforeAll(async () => {
  server = await startIamTestServer({ now: () => clock });
  await server.iam.createUser({ username: 'bob', password: 'bob-pw', roles: ['ROLE_DEVELOPER'] });
});
afterAll(() => server.close());

const form = (fields: Record<string, string>, path = TOKEN, headers: Record<string, string> = {}) =>
  tokenRequest(server, fields, path, headers);
const login = (username = 'bob', password = 'bob-pw', client = 'cli') =>
  form({ grant_type: 'password', client_id: client, username, password, scope: 'openid' });
const whoAmI = (auth: string) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ set: { value: '#{@user.username()}' } }] }),
  });

describe('token endpoint: password grant', () => {
  it('answers like Keycloak and the access token works as Bearer', async () => {
    const r = await login();
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      refresh_expires_in: 1800,
      scope: 'openid',
    });
    expect(typeof r.json.access_token).toBe('string');
    expect(typeof r.json.refresh_token).toBe('string');
    expect(decodeProtectedHeader(r.json.access_token)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect((await whoAmI(`Bearer ${r.json.access_token}`)).text).toBe('bob');
    expect((await whoAmI(`bearer ${r.json.access_token}`)).text).toBe('bob');
  });

  it('answers an unknown user and a wrong password alike', async () => {
    const wrong = await login('bob', 'nope');
    const unknown = await login('nobody', 'bob-pw');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
  });

  it.each([
    [
      'an unknown client',
      { grant_type: 'password', client_id: 'evil', username: 'bob', password: 'bob-pw' },
      401,
      'invalid_client',
    ],
    ['no client', { grant_type: 'password', username: 'bob', password: 'bob-pw' }, 400, 'invalid_request'],
    ['no grant type', { client_id: 'cli', username: 'bob', password: 'bob-pw' }, 400, 'invalid_request'],
    [
      'an unsupported grant',
      { grant_type: 'client_credentials', client_id: 'cli' },
      400,
      'unsupported_grant_type',
    ],
    ['no username', { grant_type: 'password', client_id: 'cli', password: 'x' }, 400, 'invalid_request'],
    [
      'a bad refresh token',
      { grant_type: 'refresh_token', client_id: 'cli', refresh_token: 'x' },
      400,
      'invalid_grant',
    ],
  ])('refuses %s', async (_name, fields, status, error) => {
    const r = await form(fields as Record<string, string>);
    expect(r.status).toBe(status);
    expect(r.json.error).toBe(error);
  });

  it('answers a user who may not log in (systemuser, no password) like a wrong password', async () => {
    await server.iam.createUser({ username: 'nopass' });
    const wrong = await login('bob', 'nope');
    for (const r of [
      await login('systemuser', ''),
      await login('systemuser', 'x'),
      await login('nopass', ''),
    ]) {
      expect(r.status).toBe(401);
      expect(r.json).toEqual(wrong.json);
    }
  });

  it.each([
    ['bad percent-encoding', 'cli%:x'],
    ['no colon', 'cli'],
  ])('refuses a client Basic header with %s as invalid_client, not a server error', async (_name, raw) => {
    const r = await form({ grant_type: 'password', username: 'bob', password: 'bob-pw' }, TOKEN, {
      authorization: `Basic ${Buffer.from(raw).toString('base64')}`,
    });
    expect(r.status).toBe(401);
    expect(r.json.error).toBe('invalid_client');
  });

  it('accepts a public client given as client_secret_basic', async () => {
    const r = await form({ grant_type: 'password', username: 'bob', password: 'bob-pw' }, TOKEN, {
      authorization: `Basic ${Buffer.from('cli:').toString('base64')}`,
    });
    expect(r.status).toBe(200);
  });

  it('knows only its realm', async () => {
    const r = await form({ grant_type: 'password' }, '/auth/realms/master/protocol/openid-connect/token');
    expect(r.status).toBe(404);
  });

  it('serves the JWKS with the key that signs the tokens', async () => {
    const certs = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/certs');
    const { access_token } = (await login()).json;
    expect(certs.status).toBe(200);
    expect(certs.json.keys).toHaveLength(1);
    expect(certs.json.keys[0]).toMatchObject({
      kty: 'RSA',
      alg: 'RS256',
      use: 'sig',
      kid: decodeProtectedHeader(access_token).kid,
    });
    expect(certs.json.keys[0].d).toBeUndefined();
  });
});

describe('Bearer refusals', () => {
  const forged = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const key = await loadOrCreateSigningKey(server.services.database.sql);
    const now = Math.floor(clock / 1000);
    return new SignJWT({ sid: 'x', ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...header })
      .setSubject((await server.iam.principalByUsername('admin'))!.uuid)
      .setIssuedAt(now)
      .setNotBefore((claims.nbf as number | undefined) ?? now)
      .setExpirationTime((claims.exp as number | undefined) ?? now + 60)
      .setIssuer((claims.iss as string | undefined) ?? server.iam.issuer)
      .setAudience((claims.aud as string | undefined) ?? 'pipework')
      .sign(key.privateKey);
  };

  it('accepts a well-formed token signed by the instance key (the forging helper is sound)', async () => {
    expect((await whoAmI(`Bearer ${await forged({})}`)).status).toBe(200);
  });

  it.each<[string, () => Promise<string>]>([
    [
      'alg none',
      async () =>
        new UnsecuredJWT({ sid: 'x', sub: (await server.iam.principalByUsername('admin'))!.uuid })
          .setIssuer(server.iam.issuer)
          .setAudience('pipework')
          .setIssuedAt()
          .setNotBefore('0s')
          .setExpirationTime('5m')
          .encode(),
    ],
    [
      'HS256 with the public key as secret',
      async () => {
        const key = await loadOrCreateSigningKey(server.services.database.sql);
        const secret = createSecretKey(Buffer.from(JSON.stringify(key.publicJwk)));
        return new SignJWT({ sid: 'x' })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject((await server.iam.principalByUsername('admin'))!.uuid)
          .setIssuer(server.iam.issuer)
          .setAudience('pipework')
          .setIssuedAt()
          .setNotBefore('0s')
          .setExpirationTime('5m')
          .sign(secret);
      },
    ],
    [
      'a tampered payload',
      async () => {
        const token = (await login()).json.access_token as string;
        const [h, p, s] = token.split('.');
        const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
        payload.sub = (await server.iam.principalByUsername('admin'))!.uuid;
        return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
      },
    ],
    [
      'HS256 with the PEM public key as secret (key confusion)',
      async () => {
        const key = await loadOrCreateSigningKey(server.services.database.sql);
        const pem = key.publicKey.export({ format: 'pem', type: 'spki' });
        return new SignJWT({ sid: 'x' })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.kid })
          .setSubject((await server.iam.principalByUsername('admin'))!.uuid)
          .setIssuer(server.iam.issuer)
          .setAudience('pipework')
          .setIssuedAt()
          .setNotBefore('0s')
          .setExpirationTime('5m')
          .sign(createSecretKey(Buffer.from(pem)));
      },
    ],
    ['PS256 signed with the instance key (algorithm not pinned)', () => forged({}, { alg: 'PS256' })],
    ['a kid other than the instance key', () => forged({}, { kid: 'another-key' })],
    ['no kid', () => forged({}, { kid: undefined })],
    ['no typ', () => forged({}, { typ: undefined })],
    ['another typ', () => forged({}, { typ: 'at+jwt' })],
    [
      'a foreign key embedded in the header',
      async () => {
        const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const key = await loadOrCreateSigningKey(server.services.database.sql);
        const now = Math.floor(clock / 1000);
        return new SignJWT({ sid: 'x' })
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid, jwk: await exportJWK(publicKey) })
          .setSubject((await server.iam.principalByUsername('admin'))!.uuid)
          .setIssuer(server.iam.issuer)
          .setAudience('pipework')
          .setIssuedAt(now)
          .setNotBefore(now)
          .setExpirationTime(now + 60)
          .sign(privateKey);
      },
    ],
    ['exp in the past', () => forged({ exp: Math.floor(clock / 1000) - 60 })],
    ['a foreign issuer', () => forged({ iss: 'https://evil.example/auth/realms/pipework' })],
    ['a foreign audience', () => forged({ aud: 'someone-else' })],
    ['a token not yet valid', () => forged({ nbf: Math.floor(clock / 1000) + 3600 })],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses %s', async (_name, make) => {
    const r = await whoAmI(`Bearer ${await make()}`);
    expect(r.status).toBe(401);
    expect(r.json.value.code).toBe('UNAUTHENTICATED');
  });

  it('refuses an expired token', async () => {
    const { access_token } = (await login()).json;
    expect((await whoAmI(`Bearer ${access_token}`)).status).toBe(200);
    clock += 301_000 + 5_000;
    try {
      const r = await whoAmI(`Bearer ${access_token}`);
      expect(r.status).toBe(401);
      expect(r.json.value).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'expired' });
    } finally {
      clock = Date.now();
    }
  });
});
