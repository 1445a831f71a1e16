// PostgresNotifications on a real throwaway cluster: channels multiplexed on one listening connection,
// unsubscribing, and a listening connection killed by the server (pg_terminate_backend) followed by a
// reconnect and a resync.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logging/logger';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../testing/postgres';
import { PostgresNotifications } from './postgres-notifications';

/** Generous: the machine running the tests may be busy. */
const WAIT = { timeout: 5_000 };

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL notification tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;
let pool: pg.Pool;

beforeAll(async () => {
  if (pgMissing) return;
  postgres = await startTestPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 3 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

const start = () =>
  PostgresNotifications.start(pool, { connectionString: postgres!.url }, silentLogger(), {
    minBackoffMs: 20,
  });

describe.skipIf(pgMissing !== undefined)('PostgresNotifications', () => {
  it('delivers each channel to its own handlers over one connection, until they unsubscribe', async () => {
    const notifications = await start();
    try {
      const a: string[] = [];
      const b: string[] = [];
      const stopA = notifications.listen('chan_a', (payload) => a.push(payload));
      notifications.listen('chan_b', (payload) => b.push(payload));
      await notifications.ready();
      await notifications.notify('chan_a', 'one');
      await notifications.notify('chan_b', 'two');
      await notifications.notify('chan_a', 'three');
      await vi.waitFor(() => expect({ a, b }).toEqual({ a: ['one', 'three'], b: ['two'] }), WAIT);

      const backends = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1`,
        [notifications.listenerPid],
      );
      expect(backends.rows[0]!.n).toBe(1);

      stopA();
      await notifications.ready();
      await notifications.notify('chan_a', 'unheard');
      await notifications.notify('chan_b', 'four');
      await vi.waitFor(() => expect(b).toEqual(['two', 'four']), WAIT);
      expect(a).toEqual(['one', 'three']);
    } finally {
      await notifications.close();
    }
  });

  it('calls onResync once the LISTEN is in effect, so a reader started now misses nothing', async () => {
    const notifications = await start();
    try {
      const resyncs: string[] = [];
      notifications.listen(
        'chan_first',
        () => undefined,
        () => resyncs.push('first'),
      );
      notifications.listen(
        'chan_first',
        () => undefined,
        () => resyncs.push('second'),
      );
      await vi.waitFor(() => expect(resyncs.sort()).toEqual(['first', 'second']), WAIT);
    } finally {
      await notifications.close();
    }
  });

  it('reconnects after the server ends its connection, resyncs every subscriber, and delivers again', async () => {
    const notifications = await start();
    try {
      const heard: string[] = [];
      let resyncs = 0;
      notifications.listen(
        'chan_drop',
        (payload) => heard.push(payload),
        () => (resyncs += 1),
      );
      await vi.waitFor(() => expect(resyncs).toBe(1), WAIT);
      await notifications.notify('chan_drop', 'before');
      await vi.waitFor(() => expect(heard).toEqual(['before']), WAIT);

      const pid = notifications.listenerPid!;
      const killed = await pool.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
      expect(killed.rows[0]!.ok).toBe(true);
      // Sent while nobody listens: lost, which is what the resync is for.
      await notifications.notify('chan_drop', 'while down');

      await vi.waitFor(() => expect(resyncs).toBe(2), { timeout: 5_000 });
      expect(notifications.listenerPid).not.toBe(pid);
      await notifications.notify('chan_drop', 'after');
      await vi.waitFor(() => expect(heard.at(-1)).toBe('after'), WAIT);
      expect(heard.filter((p) => p === 'before' || p === 'after')).toEqual(['before', 'after']);
    } finally {
      await notifications.close();
    }
  });

  it('keeps retrying while the listening connection cannot be opened, then resyncs', async () => {
    // A role that may log in once at a time: reconnects fail while another connection holds the slot.
    await pool.query(`CREATE ROLE one_login LOGIN CONNECTION LIMIT 1`);
    const url = postgres!.url.replace('postgres@', 'one_login@');
    const notifications = await PostgresNotifications.start(pool, { connectionString: url }, silentLogger(), {
      minBackoffMs: 300,
      maxBackoffMs: 300,
    });
    let blocker: pg.Client | undefined;
    try {
      let resyncs = 0;
      notifications.listen(
        'chan_retry',
        () => undefined,
        () => (resyncs += 1),
      );
      await vi.waitFor(() => expect(resyncs).toBe(1), WAIT);
      await pool.query('SELECT pg_terminate_backend($1)', [notifications.listenerPid]);
      // Take the one slot before the first reconnect (300 ms later); the killed backend may take a moment to go.
      await vi.waitFor(
        async () => {
          const client = new pg.Client(url);
          await client.connect();
          blocker = client;
        },
        { timeout: 250, interval: 5 },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // several failed attempts
      expect(notifications.listenerPid).toBeUndefined();
      expect(resyncs).toBe(1);
      await blocker!.end();
      await vi.waitFor(() => expect(resyncs).toBe(2), { timeout: 5_000 });
      expect(notifications.listenerPid).toBeDefined();
    } finally {
      await notifications.close();
    }
  });
});
