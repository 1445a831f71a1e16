// Rotating refresh tokens over HTTP: rotation, reuse revoking the family (also after a restart), logout.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, serversClosedAfterEach, tokenRequest } from '../iam/test-iam';

const startServer = serversClosedAfterEach();
const start = (databaseFile?: string) => startServer({ databaseFile });
const form = tokenRequest;
const login = (server: IamTestServer) =>
  form(server, { grant_type: 'password', client_id: 'workbench', username: 'carol', password: 'carol-pw' });
const refresh = (server: IamTestServer, token: string, client = 'workbench') =>
  form(server, { grant_type: 'refresh_token', client_id: client, refresh_token: token });
const call = (server: IamTestServer, auth: string) => http(server.url, '/api/v3/command/datetime', { auth });

describe('refresh tokens', () => {
  it('rotate: each use gives a new pair and the old refresh token is spent', async () => {
    const server = await start();
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    const second = await refresh(server, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(second.json.session_state).toBe(first.session_state);
    expect((await call(server, `Bearer ${second.json.access_token}`)).status).toBe(200);
  });

  it('used twice: the whole family is revoked, also after a restart', async () => {
    const databaseFile = join(mkdtempSync(join(tmpdir(), 'pipework-refresh-')), 'db.sqlite');
    const server = await start(databaseFile);
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    const second = (await refresh(server, first.refresh_token)).json;

    const reuse = await refresh(server, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
    // The successor and the family's access tokens are dead too.
    expect((await refresh(server, second.refresh_token)).json.error).toBe('invalid_grant');
    expect((await call(server, `Bearer ${second.access_token}`)).status).toBe(401);
    expect((await call(server, `Refresh ${second.refresh_token}`)).status).toBe(401);
    // Another login is a new family and works.
    const other = (await login(server)).json;
    expect((await call(server, `Bearer ${other.access_token}`)).status).toBe(200);

    await server.close();
    const restarted = await start(databaseFile);
    expect((await call(restarted, `Bearer ${second.access_token}`)).status).toBe(401);
    expect((await refresh(restarted, second.refresh_token)).json.error).toBe('invalid_grant');
    expect((await call(restarted, `Bearer ${other.access_token}`)).status).toBe(200);
  });

  it('a reuse detected after a restart revokes the family too', async () => {
    const databaseFile = join(mkdtempSync(join(tmpdir(), 'pipework-refresh-')), 'db.sqlite');
    const server = await start(databaseFile);
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    const second = (await refresh(server, first.refresh_token)).json;
    await server.close();
    const restarted = await start(databaseFile);
    expect((await refresh(restarted, first.refresh_token)).status).toBe(400);
    expect((await refresh(restarted, second.refresh_token)).status).toBe(400);
  });

  it('belong to the client they were issued to', async () => {
    const server = await start();
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    const r = await refresh(server, first.refresh_token, 'cli');
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_grant');
  });

  it('authenticate a request with the Refresh scheme without being spent; a spent one is refused', async () => {
    const server = await start();
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    expect((await call(server, `Refresh ${first.refresh_token}`)).status).toBe(200);
    expect((await call(server, `refresh ${first.refresh_token}`)).status).toBe(200);
    const second = (await refresh(server, first.refresh_token)).json;
    const spent = await call(server, `Refresh ${first.refresh_token}`);
    expect(spent.status).toBe(401);
    expect(spent.json.value.code).toBe('UNAUTHENTICATED');
    // Presenting the spent token was a reuse: the family is gone.
    expect((await call(server, `Refresh ${second.refresh_token}`)).status).toBe(401);
  });

  it('logout ends the family', async () => {
    const server = await start();
    await server.iam.createUser({ username: 'carol', password: 'carol-pw' });
    const first = (await login(server)).json;
    const out = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/logout', {
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ client_id: 'workbench', refresh_token: first.refresh_token }).toString(),
    });
    expect(out.status).toBe(204);
    expect((await call(server, `Bearer ${first.access_token}`)).status).toBe(401);
    expect((await refresh(server, first.refresh_token)).status).toBe(400);
  });
});
