// Two server processes on one PostgreSQL database, as behind a load balancer: what one instance commits,
// the other reads, lists and streams; sessions and lock-outs are the installation's, not an instance's; an
// event.listen pipeline runs once in the installation; and an instance that was down catches up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEventStream } from '../server/testing/event-stream';
import { eventually } from '../server/testing/eventually';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../server/testing/postgres';
import { command } from './support/requests';
import { ADMIN_PASSWORD, type ServerProcess, killHard, startServerProcess } from './support/server-process';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`Two-instance tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;
let a: ServerProcess;
let b: ServerProcess;
const dataDirs: string[] = [];
let env: Record<string, string>;

/** One instance on the shared database, with a data folder (drive, mail outbox) of its own. */
async function instance(): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'pipework-instance-'));
  dataDirs.push(dir);
  return startServerProcess(dir, env);
}

beforeAll(async () => {
  if (pgMissing) return;
  postgres = await startTestPostgres();
  env = {
    PIPEWORK_DATABASE_URL: postgres.url,
    PIPEWORK_LOGIN_LOCK_AFTER: '3',
    PIPEWORK_LOGIN_SLOW_AFTER: '100',
  };
  // Both start at the same moment on an empty database: migrations and first-start setup happen once.
  [a, b] = await Promise.all([instance(), instance()]);
}, 120_000);

afterAll(async () => {
  for (const server of [a, b]) if (server) await killHard(server);
  postgres?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const tokenUrl = (server: ServerProcess) =>
  `${server.url}/auth/realms/pipework/protocol/openid-connect/token`;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Follows an instance's event stream as the admin, keeping each event's id, event key and target key. */
function followEvents(server: ServerProcess, query: string, headers: Record<string, string> = {}) {
  return followEventStream(
    `${server.url}/api/v3/events?${query}`,
    { authorization: basic('admin', ADMIN_PASSWORD), ...headers },
    ({ id, data }) => {
      const json = data as { eventKey: string; payload: { target?: { key: string } } };
      return { id: Number(id), eventKey: json.eventKey, key: json.payload.target?.key ?? '' };
    },
  );
}

describe.skipIf(pgMissing !== undefined)('two instances on one PostgreSQL database', () => {
  it('started at once, they set up the installation once and sign tokens with the same key', async () => {
    const users = await command(a.url, 'iam.user.list', { max: 100 });
    expect(users.json.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'systemuser']);
    const certs = await Promise.all(
      [a, b].map(async (s) =>
        (await fetch(`${s.url}/auth/realms/pipework/protocol/openid-connect/certs`)).json(),
      ),
    );
    expect(certs[0]).toEqual(certs[1]);
  });

  it('a property written through A is read, listed and streamed as an event through B', async () => {
    const stream = followEvents(b, 'filter=global/app/two/**');
    await new Promise((r) => setTimeout(r, 300));
    const put = await command(a.url, 'property.schema.put', {
      key: 'global/app/two/greeting',
      value: 'hello',
    });
    expect(put.status).toBe(200);
    expect((await command(b.url, 'property.get', { key: 'global/app/two/greeting' })).json.value).toBe(
      'hello',
    );
    const listed = await command(b.url, 'property.list', { pattern: 'global/app/two/**' });
    expect(listed.json.map((p: { key: string }) => p.key)).toEqual(['global/app/two/greeting']);
    const event = await eventually(async () =>
      stream.events.find((e) => e.key === 'global/app/two/greeting'),
    );
    expect(event.eventKey).toBe('property.created');
    await stream.stop();
  });

  it('keeps per-key commit order on both instances while both write the same key', async () => {
    const streams = [a, b].map((s) => followEvents(s, 'filter=global/app/two/race'));
    await new Promise((r) => setTimeout(r, 300));
    await command(a.url, 'property.schema.put', { key: 'global/app/two/race', value: '0' });
    const writes = Array.from({ length: 40 }, (_, i) =>
      command(i % 2 ? a.url : b.url, 'property.schema.put', {
        key: 'global/app/two/race',
        value: String(i + 1),
      }),
    );
    expect((await Promise.all(writes)).every((w) => w.status === 200)).toBe(true);
    for (const stream of streams)
      await eventually(async () => (stream.events.length >= 41 ? true : undefined));
    const [onA, onB] = streams.map((s) => s.events.map((e) => e.id));
    expect(onA).toEqual(onB);
    expect([...onA!].sort((x, y) => x - y)).toEqual(onA);
    for (const stream of streams) await stream.stop();
  });

  it('a refresh token rotated on A cannot be used again on B, and that reuse ends the session', async () => {
    const login = await (
      await fetch(
        tokenUrl(a),
        form({ grant_type: 'password', client_id: 'cli', username: 'admin', password: ADMIN_PASSWORD }),
      )
    ).json();
    const rotated = await fetch(
      tokenUrl(a),
      form({ grant_type: 'refresh_token', client_id: 'cli', refresh_token: login.refresh_token }),
    );
    expect(rotated.status).toBe(200);
    const next = await rotated.json();
    const reuse = await fetch(
      tokenUrl(b),
      form({ grant_type: 'refresh_token', client_id: 'cli', refresh_token: login.refresh_token }),
    );
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    // The whole login ended on every instance: the successor token and its access token are refused.
    const successor = await fetch(
      tokenUrl(a),
      form({ grant_type: 'refresh_token', client_id: 'cli', refresh_token: next.refresh_token }),
    );
    expect(successor.status).toBe(400);
    const withAccess = await eventually(async () => {
      const r = await fetch(`${a.url}/api/v3/command/datetime`, {
        headers: { authorization: `Bearer ${next.access_token}` },
      });
      return r.status === 401 ? r.status : undefined;
    });
    expect(withAccess).toBe(401);
  });

  it('a lock-out earned on A holds on B, and its release on B holds on A', async () => {
    await command(a.url, 'iam.user.create', { name: 'mallory', password: 'right-password' });
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${a.url}/api/v3/command/datetime`, {
        headers: { authorization: basic('mallory', 'wrong') },
      });
      expect(r.status).toBe(401);
    }
    const onB = await fetch(`${b.url}/api/v3/command/datetime`, {
      headers: { authorization: basic('mallory', 'right-password') },
    });
    expect(onB.status).toBe(429);
    const status = await command(b.url, 'iam.bruteforce.status', { username: 'mallory' });
    expect(status.json).toMatchObject({ failures: 3, locked: true });
    await command(b.url, 'iam.bruteforce.release', { username: 'mallory' });
    const onA = await fetch(`${a.url}/api/v3/command/datetime`, {
      headers: { authorization: basic('mallory', 'right-password') },
    });
    expect(onA.status).toBe(200);
  });

  it('a user deleted on A is refused at once on B, where its password and principal were cached', async () => {
    const created = await command(a.url, 'iam.user.create', { name: 'trent', password: 'trent-pw' });
    expect(created.status).toBe(200);
    const asTrent = { authorization: basic('trent', 'trent-pw') };
    // B verifies the password once and then remembers it (and trent's principal).
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${b.url}/api/v3/command/datetime`, { headers: asTrent })).status).toBe(200);
    }
    const login = await (
      await fetch(
        tokenUrl(b),
        form({ grant_type: 'password', client_id: 'cli', username: 'trent', password: 'trent-pw' }),
      )
    ).json();
    const bearer = { authorization: `Bearer ${login.access_token}` };
    expect((await fetch(`${b.url}/api/v3/command/datetime`, { headers: bearer })).status).toBe(200);
    expect((await command(a.url, 'iam.user.delete', { uuid: created.json.uuid })).status).toBe(200);
    const refused = await eventually(
      async () => {
        const basicOnB = await fetch(`${b.url}/api/v3/command/datetime`, { headers: asTrent });
        const bearerOnB = await fetch(`${b.url}/api/v3/command/datetime`, { headers: bearer });
        return basicOnB.status === 401 && bearerOnB.status === 401 ? true : undefined;
      },
      { within: 2_000 },
    );
    expect(refused).toBe(true);
  });

  it('an event.listen pipeline runs once in the installation, not once per instance', async () => {
    const listener = `pipeline:
  - event.listen:
      key: property.created
      filter: "#{body.target.key.startsWith('global/app/once/trigger/')}"
  - property.schema.put:
      key: "global/app/once/ran/#{@text.uuid()}"
      value: "#{body.target.key}"
`;
    const stored = await command(
      a.url,
      'property.schema.put',
      { key: 'global/app/once/pipeline/on-trigger', type: 'application/yaml;type=pipeline' },
      { data: listener, type: 'application/yaml' },
    );
    expect(stored.status).toBe(200);
    // B learns of the new listener through the event of its creation.
    await new Promise((r) => setTimeout(r, 1_000));
    for (let i = 0; i < 5; i++) {
      await command(i % 2 ? a.url : b.url, 'property.schema.put', {
        key: `global/app/once/trigger/${i}`,
        value: 'go',
      });
    }
    const ranKeys = async () =>
      (await command(a.url, 'property.list', { pattern: 'global/app/once/ran/*' })).json as {
        value: string;
      }[];
    await eventually(async () => ((await ranKeys()).length >= 5 ? true : undefined));
    // Give a second run every chance to happen, then count.
    await new Promise((r) => setTimeout(r, 2_000));
    const runs = (await ranKeys()).map((p) => p.value).sort();
    expect(runs).toEqual([0, 1, 2, 3, 4].map((i) => `global/app/once/trigger/${i}`));
  });

  it("expressions read and write the shared store and the users through either instance (PEL's synchronous calls)", async () => {
    await command(a.url, 'property.schema.put', { key: 'global/app/pel/counter', value: '41' });
    await command(a.url, 'iam.user.create', {
      name: 'peggy',
      firstName: 'Peggy',
      email: 'peggy@example.com',
    });
    const pipeline = `pipeline:
  - set.body:
      value:
        before: "#{@property.value('global/app/pel/counter')}"
        written: "#{@property.updateValue('global/app/pel/counter', 42)}"
        user: "#{@iam.userByUsername('PEGGY').firstName}"
        byEmail: "#{@iam.userByEmail('peggy@example.com').username}"
`;
    const response = await fetch(`${b.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: basic('admin', ADMIN_PASSWORD), 'content-type': 'application/yaml' },
      body: pipeline,
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ before: '41', user: 'Peggy', byEmail: 'peggy' });
    expect((await command(a.url, 'property.get', { key: 'global/app/pel/counter' })).json.value).toBe('42');
  });

  it('a client of an instance that was down resumes after Last-Event-ID, on the other instance', async () => {
    const first = followEvents(b, 'filter=global/app/resume/**');
    await new Promise((r) => setTimeout(r, 300));
    await command(a.url, 'property.schema.put', { key: 'global/app/resume/1', value: 'one' });
    const seen = await eventually(async () => first.events.find((e) => e.key === 'global/app/resume/1'));
    await killHard(b);
    await first.stop();
    // While B is down, more is written through A.
    for (const n of [2, 3])
      await command(a.url, 'property.schema.put', { key: `global/app/resume/${n}`, value: 'x' });
    b = await instance();
    const resumed = followEvents(b, 'filter=global/app/resume/**', { 'last-event-id': String(seen.id) });
    await eventually(async () => (resumed.events.length >= 2 ? true : undefined));
    expect(resumed.events.map((e) => e.key)).toEqual(['global/app/resume/2', 'global/app/resume/3']);
    await resumed.stop();
  });
});
