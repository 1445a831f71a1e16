/**
 * Finding 4 of issue 18: lock-outs an attacker cannot aim. Before, anyone could lock any account (the admin's
 * too) for everyone with ten wrong passwords, again and again. Now the address that guesses is locked out of
 * the account; the account itself is only slowed; and the admin recovers on the server with
 * `npm run unlock -- <user>` (scripts/unlock.mjs), on SQLite and on PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../testing/postgres';
import { basicAuth, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const run = promisify(execFile);
const UNLOCK = new URL('../../scripts/unlock.mjs', import.meta.url).pathname;
const LIMITS = {
  PIPEWORK_LOGIN_SLOW_AFTER: '100',
  PIPEWORK_LOGIN_LOCK_AFTER: '5',
  PIPEWORK_LOGIN_ACCOUNT_SLOW_AFTER: '8',
  PIPEWORK_LOGIN_DELAY_MILLIS: '300',
  PIPEWORK_LOGIN_MAX_DELAY_MILLIS: '300',
};

/** A request from a chosen loopback address (Linux routes all of 127/8 to the loopback interface). */
function from(
  localAddress: string,
  server: TestServer,
  path: string,
  authorization: string,
): Promise<{ status: number; millis: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { localAddress, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, millis: performance.now() - started }));
    });
    req.on('error', reject);
    req.end();
  });
}

const ADMIN = basicAuth('admin', TEST_ADMIN_PASSWORD);
const WRONG = basicAuth('admin', 'not-the-password');
const probe = '/api/v3/command/datetime';

async function lockFrom(server: TestServer, address: string, times = 5): Promise<void> {
  for (let i = 0; i < times; i++) expect((await from(address, server, probe, WRONG)).status).toBe(401);
}

describe('lock-outs on SQLite', () => {
  let server: TestServer;
  beforeAll(async () => {
    // a real socket: requests come from several loopback addresses (node:http with localAddress)
    server = await startTestServer({ socket: true, env: LIMITS });
  });
  afterAll(() => server.close());

  it('L01 an attacker locks only their own address out of the admin account', async () => {
    await lockFrom(server, '127.0.0.2');
    // The attacker's address, even with the right password, is refused...
    expect((await from('127.0.0.2', server, probe, ADMIN)).status).toBe(429);
    // ...the admin from their own address signs in.
    expect((await from('127.0.0.1', server, probe, ADMIN)).status).toBe(200);
    // Again and again: locking anew from the attacker's side changes nothing for the admin.
    await lockFrom(server, '127.0.0.3');
    expect((await from('127.0.0.1', server, probe, ADMIN)).status).toBe(200);
  });

  it('L02 many addresses together slow the account down but never lock it', async () => {
    await server.services.iam.createUser({ username: 'carol', password: 'carol-password-1' });
    const wrong = basicAuth('carol', 'wrong-password');
    for (let i = 10; i < 19; i++) expect((await from(`127.0.1.${i}`, server, probe, wrong)).status).toBe(401);
    const status = await server.services.iam.bruteForce.status('carol');
    expect(status).toMatchObject({ failures: 9, locked: false });
    // Past PIPEWORK_LOGIN_ACCOUNT_SLOW_AFTER each password check waits; the right password still gets in.
    const carol = await from('127.0.0.1', server, probe, basicAuth('carol', 'carol-password-1'));
    expect(carol.status).toBe(200);
    expect(carol.millis).toBeGreaterThanOrEqual(250);
  });

  it('L03 a locked admin recovers on the server with npm run unlock', async () => {
    await server.services.iam.bruteForce.release('admin');
    await lockFrom(server, '127.0.0.1');
    expect((await from('127.0.0.1', server, probe, ADMIN)).status).toBe(429);
    const { stdout } = await run(process.execPath, [UNLOCK, 'ADMIN'], {
      env: { ...process.env, PIPEWORK_DATA: server.config.dataDir, PIPEWORK_DATABASE_URL: '' },
    });
    expect(stdout).toMatch(/^Unlocked ADMIN: \d+ failure record/);
    expect((await from('127.0.0.1', server, probe, ADMIN)).status).toBe(200);
  });

  it('L04 the admin command iam.bruteforce.status shows which addresses are locked', async () => {
    await lockFrom(server, '127.0.0.4');
    const status = await from(
      '127.0.0.1',
      server,
      '/api/v3/command/iam.bruteforce.status?username=admin',
      ADMIN,
    );
    expect(status.status).toBe(200);
    const body = (await server.services.iam.bruteForce.status('admin')).lockedSources.map((s) => s.source);
    expect(body).toContain('127.0.0.4');
    expect(body).not.toContain('127.0.0.1');
  });
});

const pgMissing = postgresMissingReason();
describe.skipIf(pgMissing !== undefined)('lock-outs on PostgreSQL', () => {
  let postgres: TestPostgres;
  let server: TestServer;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    // a real socket: requests come from several loopback addresses (node:http with localAddress)
    server = await startTestServer({ socket: true, env: { ...LIMITS, PIPEWORK_DATABASE_URL: postgres.url } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    postgres?.stop();
  });

  it('L05 the address is locked out, the admin elsewhere is not, and npm run unlock lifts it', async () => {
    await lockFrom(server, '127.0.0.2');
    expect((await from('127.0.0.2', server, probe, ADMIN)).status).toBe(429);
    expect((await from('127.0.0.1', server, probe, ADMIN)).status).toBe(200);
    const { stdout } = await run(process.execPath, [UNLOCK, 'admin'], {
      env: { ...process.env, PIPEWORK_DATABASE_URL: postgres.url },
    });
    expect(stdout).toMatch(/^Unlocked admin/);
    expect((await from('127.0.0.2', server, probe, ADMIN)).status).toBe(200);
  });
});
