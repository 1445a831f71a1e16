// Tokens the way the real product's clients get them: iam.token, iam.token.refresh and iam.apitoken without
// prior credentials, API tokens as `Authorization: Apitoken`, scheme names in any case, brute-force rules.
import { describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, serversClosedAfterEach } from '../iam/test-iam';

const start = serversClosedAfterEach();
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const whoAmI = (server: IamTestServer, auth: string) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/yaml',
    body: 'pipeline:\n  - set.body:\n      value: "#{@user.username()}"\n',
  });

async function withUser(options: Parameters<typeof start>[0] = {}) {
  const server = await start({ bruteForce: { slowAfter: 100, lockAfter: 3 }, ...options });
  await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
  await server.iam.createUser({ username: 'dave', password: 'dave-pw' });
  return server;
}

describe('iam.token and iam.token.refresh without prior credentials', () => {
  it('takes username and password as request parameters or as a JSON body', async () => {
    const server = await withUser();
    const byQuery = await http(
      server.url,
      `/api/v3/command/iam.token?${q({ username: 'carol', password: 'carol-pw' })}`,
    );
    expect(byQuery.status).toBe(200);
    expect(byQuery.json.token_type).toBe('Bearer');
    expect((await whoAmI(server, `Bearer ${byQuery.json.access_token}`)).text).toBe('carol');

    const byBody = await http(server.url, '/api/v3/command/iam.token', {
      type: 'application/json',
      body: JSON.stringify({ username: 'carol', password: 'carol-pw' }),
    });
    expect(byBody.status).toBe(200);
    const refreshed = await http(
      server.url,
      `/api/v3/command/iam.token.refresh?${q({ refreshToken: byBody.json.refresh_token })}`,
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(byBody.json.refresh_token);
    // Scheme names are case-insensitive: `refresh`, `BEARER`.
    expect((await whoAmI(server, `refresh ${refreshed.json.refresh_token}`)).text).toBe('carol');
    expect((await whoAmI(server, `BEARER ${refreshed.json.access_token}`)).text).toBe('carol');
  });

  it('refuses a wrong password with UNAUTHENTICATED and locks the name after the guard allows no more', async () => {
    const server = await withUser();
    for (let i = 0; i < 3; i++) {
      const wrong = await http(
        server.url,
        `/api/v3/command/iam.token?${q({ username: 'carol', password: 'x' })}`,
      );
      expect(wrong.json.value.code).toBe(i < 2 ? 'UNAUTHENTICATED' : 'UNAUTHENTICATED');
    }
    // Locked: the right password is refused on every path, including a token got before.
    const locked = await http(
      server.url,
      `/api/v3/command/iam.token?${q({ username: 'carol', password: 'carol-pw' })}`,
    );
    expect(locked.status).toBe(429);
    expect(locked.json.value.code).toBe('TOO_MANY_REQUESTS');
    const apitoken = await http(
      server.url,
      `/api/v3/command/iam.apitoken?${q({ username: 'carol', password: 'carol-pw' })}`,
    );
    expect(apitoken.status).toBe(429);
  });

  it('a missing parameter is PARAM_INVALID, other commands still need credentials', async () => {
    const server = await withUser();
    const missing = await http(server.url, `/api/v3/command/iam.token?${q({ username: 'carol' })}`);
    expect(missing.status).toBe(400);
    expect(missing.json.value.code).toBe('PARAM_INVALID');
    expect((await http(server.url, '/api/v3/command/datetime')).status).toBe(401);
    // Nothing is evaluated for a caller without credentials, and only the command's own parameters count.
    const extras: Record<string, string>[] = [
      { username: "#{@property.value('global/x')}", password: 'x' },
      { username: 'carol', password: 'carol-pw', output: 'vars.t' },
    ];
    for (const extra of extras) {
      const refused = await http(server.url, `/api/v3/command/iam.token?${q(extra)}`);
      expect([refused.status, refused.json.value.code]).toEqual([400, 'PARAM_INVALID']);
    }
    expect((await http(server.url, '/api/v3/command/iam.apitoken.list')).status).toBe(401);
  });
});

describe('iam.apitoken', () => {
  const create = (server: IamTestServer, user: string, extra: Record<string, string> = {}) =>
    http(
      server.url,
      `/api/v3/command/iam.apitoken?${q({ username: user, password: `${user}-pw`, ...extra })}`,
    );

  it('is shown once, works as `Authorization: Apitoken` (any case) and through iam.token.refresh', async () => {
    const server = await withUser();
    const created = await create(server, 'carol', { name: 'ci' });
    expect(created.status).toBe(200);
    const token: string = created.json.apitoken;
    expect(token).toMatch(/^pwapi_/);
    expect((await whoAmI(server, `Apitoken ${token}`)).text).toBe('carol');
    expect((await whoAmI(server, `apitoken ${token}`)).text).toBe('carol');
    const access = await http(server.url, `/api/v3/command/iam.token.refresh?${q({ refreshToken: token })}`);
    expect(access.status).toBe(200);
    expect((await whoAmI(server, `Bearer ${access.json.access_token}`)).text).toBe('carol');
    // Listed without the token itself.
    const listed = await http(server.url, '/api/v3/command/iam.apitoken.list', { auth: `Apitoken ${token}` });
    expect(listed.json).toEqual([
      expect.objectContaining({ name: 'ci', username: 'carol', uuid: created.json.uuid }),
    ]);
    expect(listed.text).not.toContain(token);
  });

  it('is revoked by its owner or an admin, never by another user; a revoked token and its access tokens end', async () => {
    const server = await withUser();
    const carol = await create(server, 'carol');
    const token: string = carol.json.apitoken;
    const access = (await http(server.url, `/api/v3/command/iam.token.refresh?${q({ refreshToken: token })}`))
      .json;
    const byDave = await http(
      server.url,
      `/api/v3/command/iam.apitoken.revoke?${q({ uuid: carol.json.uuid })}`,
      {
        auth: server.basicAuth('dave', 'dave-pw'),
      },
    );
    expect(byDave.json.value.code).toBe('NOT_FOUND');
    const othersList = await http(server.url, '/api/v3/command/iam.apitoken.list?username=carol', {
      auth: server.basicAuth('dave', 'dave-pw'),
    });
    expect(othersList.json.value.code).toBe('FORBIDDEN');
    expect((await whoAmI(server, `Apitoken ${token}`)).status).toBe(200);

    const revoked = await http(
      server.url,
      `/api/v3/command/iam.apitoken.revoke?${q({ uuid: carol.json.uuid })}`,
      {
        auth: `Apitoken ${token}`,
      },
    );
    expect(revoked.status).toBe(200);
    const after = await whoAmI(server, `Apitoken ${token}`);
    expect(after.status).toBe(401);
    expect(after.json.value.code).toBe('UNAUTHENTICATED');
    expect((await whoAmI(server, `Bearer ${access.access_token}`)).status).toBe(401);
    const refresh = await http(server.url, `/api/v3/command/iam.token.refresh?${q({ refreshToken: token })}`);
    expect(refresh.json.value.code).toBe('UNAUTHENTICATED');

    const other = (await create(server, 'dave')).json;
    const byAdmin = await http(server.url, `/api/v3/command/iam.apitoken.revoke?${q({ uuid: other.uuid })}`, {
      auth: server.adminAuth,
    });
    expect(byAdmin.status).toBe(200);
    expect((await whoAmI(server, `Apitoken ${other.apitoken}`)).status).toBe(401);
  });

  it('an expired token is UNAUTHENTICATED; a bad lifetime is PARAM_INVALID and stores nothing', async () => {
    let clock = Date.now();
    const server = await withUser({ now: () => clock });
    const token = (await create(server, 'carol', { expiresInDays: '1' })).json.apitoken;
    expect((await whoAmI(server, `Apitoken ${token}`)).status).toBe(200);
    clock += 86_400_000 + 1000;
    const expired = await whoAmI(server, `Apitoken ${token}`);
    expect(expired.status).toBe(401);
    expect(expired.json.value.code).toBe('UNAUTHENTICATED');
    const bad = await create(server, 'carol', { expiresInDays: '0' });
    expect(bad.json.value.code).toBe('PARAM_INVALID');
    expect(await server.iam.apiTokens.list()).toEqual([]);
  });
});
