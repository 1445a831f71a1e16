// What ends a user's access, over HTTP: deletion, disabling, a password change, and a session's end (also after a restart).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, basic, serversClosedAfterEach, tokenRequest } from '../iam/test-iam';

const start = serversClosedAfterEach();
const form = tokenRequest;
const login = (server: IamTestServer, username: string, password: string) =>
  form(server, { grant_type: 'password', client_id: 'cli', username, password });
const refresh = (server: IamTestServer, token: string) =>
  form(server, { grant_type: 'refresh_token', client_id: 'cli', refresh_token: token });
const call = (server: IamTestServer, auth: string) => http(server.url, '/api/v3/command/datetime', { auth });

/** A user with a cached Basic credential, a live access token and a live refresh token. */
async function signedIn(server: IamTestServer, username: string) {
  const user = await server.iam.createUser({ username, password: `${username}-pw` });
  const tokens = (await login(server, username, `${username}-pw`)).json;
  const auth = basic(username, `${username}-pw`);
  expect((await call(server, auth)).status).toBe(200);
  expect((await call(server, `Bearer ${tokens.access_token}`)).status).toBe(200);
  return { user, auth, access: tokens.access_token as string, refresh: tokens.refresh_token as string };
}

describe('a user whose access ended', () => {
  it('deleted: the cached Basic credential, the access token and the refresh token are refused', async () => {
    const server = await start();
    const s = await signedIn(server, 'dora');
    const del = await http(server.url, `/api/v3/command/iam.user.delete?uuid=${s.user.uuid}`, {
      auth: server.adminAuth,
    });
    expect(del.status).toBe(200);
    for (const auth of [s.auth, `Bearer ${s.access}`, `Refresh ${s.refresh}`]) {
      const r = await call(server, auth);
      expect(r.status).toBe(401);
      expect(r.json.value.code).toBe('UNAUTHENTICATED');
    }
    expect((await refresh(server, s.refresh)).json.error).toBe('invalid_grant');
  });

  it('disabled: refused by every scheme and as a RunAs target; its sessions stay ended', async () => {
    const server = await start();
    const s = await signedIn(server, 'dino');
    await server.iam.setEnabled(s.user.uuid, false);
    for (const auth of [s.auth, `Bearer ${s.access}`, `Refresh ${s.refresh}`]) {
      expect((await call(server, auth)).status).toBe(401);
    }
    expect((await login(server, 'dino', 'dino-pw')).status).toBe(401);
    expect((await call(server, `${server.adminAuth}, RunAs dino`)).status).toBe(403);
    await server.iam.setEnabled(s.user.uuid, true);
    expect((await call(server, s.auth)).status).toBe(200);
    expect((await call(server, `Bearer ${s.access}`)).status).toBe(401);
    expect((await refresh(server, s.refresh)).status).toBe(400);
    await expect(
      server.iam.setEnabled((await server.iam.principalByUsername('admin'))!.uuid, false),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('password changed: the old password (cached) and every session are refused', async () => {
    const server = await start();
    const s = await signedIn(server, 'pia');
    await server.iam.setPassword(s.user.uuid, 'new-pw');
    expect((await call(server, s.auth)).status).toBe(401);
    expect((await call(server, `Bearer ${s.access}`)).status).toBe(401);
    expect((await refresh(server, s.refresh)).status).toBe(400);
    expect((await call(server, basic('pia', 'new-pw'))).status).toBe(200);
  });
});

describe('a session’s end bounds its access tokens', () => {
  it('an access token never outlives its session', async () => {
    const server = await start({ refreshTokens: { familyMaxSeconds: 60 } });
    await server.iam.createUser({ username: 'sam', password: 'sam-pw' });
    const r = await login(server, 'sam', 'sam-pw');
    expect(r.json.expires_in).toBeLessThanOrEqual(60);
    const exp = JSON.parse(Buffer.from(r.json.access_token.split('.')[1], 'base64url').toString()).exp;
    expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
  });

  it('a revoked session stays revoked after a restart, within the clock tolerance past its end', async () => {
    let clock = Date.now();
    const databaseFile = join(mkdtempSync(join(tmpdir(), 'pipework-session-')), 'db.sqlite');
    const options = { databaseFile, now: () => clock, refreshTokens: { familyMaxSeconds: 60 } };
    const server = await start(options);
    await server.iam.createUser({ username: 'sam', password: 'sam-pw' });
    const tokens = (await login(server, 'sam', 'sam-pw')).json;
    const out = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/logout', {
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ refresh_token: tokens.refresh_token }).toString(),
    });
    expect(out.status).toBe(204);
    await server.close();
    clock += 62_000; // the session ended 2 s ago: its last access token is within the 5 s tolerance
    const restarted = await start(options);
    const r = await call(restarted, `Bearer ${tokens.access_token}`);
    expect(r.status).toBe(401);
    expect(r.json.value.code).toBe('UNAUTHENTICATED');
  });
});
