// Brute-force protection over HTTP: slowed, then the source locked out of the account for passwords.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, basic, startIamTestServer, tokenRequest } from '../iam/test-iam';

let server: IamTestServer;
let clock = Date.now();
const waits: number[] = [];

beforeAll(async () => {
  server = await startIamTestServer({
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
    },
    bruteForce: { slowAfter: 2, lockAfter: 4, baseDelayMs: 100, maxDelayMs: 1000, lockMs: 60_000 },
  });
});
afterAll(() => server.close());

const login = (username: string, password: string) =>
  tokenRequest(server, { grant_type: 'password', client_id: 'cli', username, password });
const call = (auth: string) => http(server.url, '/api/v3/command/datetime', { auth });

describe('brute-force protection', () => {
  it('slows repeated failures, then locks this source out of the account for passwords', async () => {
    await server.iam.createUser({ username: 'dana', password: 'dana-pw' });
    const before = (await login('dana', 'dana-pw')).json;
    expect((await call(`Bearer ${before.access_token}`)).status).toBe(200);
    expect((await call(basic('dana', 'dana-pw'))).status).toBe(200); // now cached

    waits.length = 0;
    expect((await call(basic('dana', 'x1'))).status).toBe(401);
    expect((await login('dana', 'x2')).status).toBe(401);
    expect(waits).toEqual([]);
    expect((await call(basic('dana', 'x3'))).status).toBe(401);
    expect((await login('dana', 'x4')).status).toBe(401);
    expect(waits).toEqual([100, 200]); // slowed from the third attempt, doubling

    const locked = await call(basic('dana', 'dana-pw'));
    expect(locked.status).toBe(429);
    expect(locked.json.value.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

    const token = await login('dana', 'dana-pw');
    expect(token.status).toBe(429);
    expect(token.json.error).toBe('invalid_grant');
    expect(token.headers.get('retry-after')).toBeTruthy();
    // A session earned before is no password guess: a login lock does not end it (docs/auth.md).
    expect((await call(`Bearer ${before.access_token}`)).status).toBe(200);
    expect((await call(`Refresh ${before.refresh_token}`)).status).toBe(200);
    expect((await call(`${server.adminAuth}, RunAs dana`)).status).toBe(200);

    clock += 61_000; // the lock ends by itself
    expect((await call(basic('dana', 'dana-pw'))).status).toBe(200);
  });

  it('a refresh during a lock keeps the session going (a lock guards passwords only)', async () => {
    await server.iam.createUser({ username: 'gia', password: 'gia-pw' });
    const before = (await login('gia', 'gia-pw')).json;
    for (let i = 0; i < 4; i++) await call(basic('gia', 'bad'));
    expect((await call(basic('gia', 'gia-pw'))).status).toBe(429);
    const after = await tokenRequest(server, {
      grant_type: 'refresh_token',
      client_id: 'cli',
      refresh_token: before.refresh_token,
    });
    expect(after.status).toBe(200);
    expect(after.json.session_state).toBe(before.session_state);
  });

  it('slows guesses looped through iam.token in a pipeline, per caller', async () => {
    await server.iam.createUser({ username: 'hux', password: 'hux-pw' });
    waits.length = 0;
    const names = Array.from({ length: 25 }, (_, i) => `spray${i}`);
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: basic('hux', 'hux-pw'),
      type: 'application/json',
      body: JSON.stringify({
        headers: { onCommandError: 'IGNORE' },
        vars: { names },
        pipeline: [
          { foreach: '#{vars.names}' },
          { 'iam.token': { username: '#{vars.item}', password: 'Winter2024!' } },
          'foreach.end',
        ],
      }),
    });
    expect(r.status, r.text).toBeLessThan(300);
    expect(waits.length).toBeGreaterThan(0); // the address rule (20 failures) applied to the caller
  });

  it('treats unknown names the same way (no hint that a user exists)', async () => {
    for (let i = 0; i < 4; i++) expect((await login('ghost', `guess-${i}`)).status).toBe(401);
    const r = await login('ghost', 'anything');
    expect(r.status).toBe(429);
    expect(r.json.error).toBe('invalid_grant');
  });

  it('can be inspected and released by an admin', async () => {
    await server.iam.createUser({ username: 'erik', password: 'erik-pw' });
    for (let i = 0; i < 4; i++) await call(basic('erik', 'bad'));
    const status = await http(server.url, '/api/v3/command/iam.bruteforce.status?username=erik', {
      auth: server.adminAuth,
    });
    expect(status.json).toMatchObject({ username: 'erik', locked: true, failures: 4 });
    const released = await http(server.url, '/api/v3/command/iam.bruteforce.release?username=erik', {
      auth: server.adminAuth,
    });
    expect(released.json).toMatchObject({ locked: false, failures: 0 });
    expect((await call(basic('erik', 'erik-pw'))).status).toBe(200);
  });

  it('keeps a lock across a restart', async () => {
    await server.iam.createUser({ username: 'fay', password: 'fay-pw' });
    for (let i = 0; i < 4; i++) await call(basic('fay', 'bad'));
    const { BruteForceGuard } = await import('../iam/brute-force-guard');
    const fresh = new BruteForceGuard(
      server.services.database.sql,
      server.iam.bruteForce.policy,
      () => clock,
    );
    expect((await fresh.status('fay')).locked).toBe(true);
  });
});
