// Events across two instances on one real PostgreSQL schema (two pools, two listening connections, two
// relays, two buses): what one writes the other delivers with the same id, concurrent writers give both the
// same commit order, and a relay catches up after a restart or a lost listening connection.
import type { Pool, PoolClient } from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { useTestPostgres } from '../testing/postgres-cluster';
import { PostgresNotifications } from '../db/postgres-notifications';
import { silentLogger } from '../logging/logger';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PropertyService } from '../store/property-service';
import { makePrincipal } from '../store/test-fixtures';
import { freshTestSchema, type TestSchema } from '../testing/postgres';
import type { Property } from '../../shared/property';
import { EventBus, type PipeworkEvent } from './event-bus';
import { OutboxAnnouncer } from './outbox-announcer';
import { outboxEventsAfter, outboxWriter } from './postgres-event-outbox';
import { PostgresEventRelay } from './postgres-event-relay';

/** Generous: the machine running the tests may be busy. */
const WAIT = { timeout: 5_000 };

const cluster = useTestPostgres('PostgreSQL event relay tests');

const alice = makePrincipal('alice', { admin: true });

/** One server instance as the wiring builds it on PostgreSQL, minus HTTP. */
async function instance(schema: TestSchema, after?: number, reconnectMs = 20) {
  const pool = schema.pool(4);
  // As the server writes: no common lock, the events announced after the commit.
  const announcer = new OutboxAnnouncer(pool, () => undefined, schema.channel);
  const store = await PostgresPropertyStore.open(pool, {
    beforeCommit: outboxWriter({ channel: schema.channel, notify: 'none', carrier: announcer }),
    afterCommit: () => announcer.committed(),
  });
  const notifications = await PostgresNotifications.start(pool, schema.connection, silentLogger(), {
    minBackoffMs: reconnectMs,
  });
  const bus = new EventBus();
  const seen: PipeworkEvent[] = [];
  bus.subscribe((event) => void seen.push(event));
  const relay = await PostgresEventRelay.start({
    pool,
    notifications,
    bus,
    logger: silentLogger(),
    channel: schema.channel,
    after,
  });
  await notifications.ready();
  const service = new PropertyService({ store, events: bus, eventsFromStore: true });
  return {
    pool,
    notifications,
    relay,
    bus,
    seen,
    service,
    async close() {
      announcer.close();
      await relay.close();
      await notifications.close();
    },
  };
}

const target = (event: PipeworkEvent) => (event.payload as { target: Property | null }).target;

/** A writer's transaction left open after inserting its event (as the store's hook does), on its own client. */
async function inFlight(pool: Pool, key: string): Promise<PoolClient> {
  const writer = outboxWriter({ notify: 'none' });
  const property = {
    uuid: key,
    key,
    value: 'v',
    type: 'text/plain',
    created: 1,
    updated: null,
    timeToLive: null,
    defaultValue: null,
    version: 1,
  };
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()'); // a writer holds its xid before its event ids
  await writer(client, [{ kind: 'created', origin: null, target: property }], { actor: 'alice' });
  return client;
}

describe.skipIf(cluster.missing !== undefined)('PostgresEventRelay', () => {
  it('delivers a write made through instance A on the bus of instance B, with the same id', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    const a = await instance(schema);
    const b = await instance(schema);
    try {
      await a.service.create(alice, { key: 'global/x', value: 'from A' });
      await vi.waitFor(() => expect(b.seen).toHaveLength(1), WAIT);
      await vi.waitFor(() => expect(a.seen).toHaveLength(1), WAIT);
      expect(b.seen[0]).toEqual(a.seen[0]);
      expect(b.seen[0]).toMatchObject({ eventKey: 'property.created', actor: 'alice', depth: 0 });
      expect(target(b.seen[0]!)).toMatchObject({ key: 'global/x', value: 'from A', version: 1 });
      const ids = await a.pool.query<{ id: string }>('SELECT id FROM event_outbox');
      expect(b.seen[0]!.id).toBe(Number(ids.rows[0]!.id));
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('gives both instances every event of 200 concurrent writes in one commit order, per key by version', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    const a = await instance(schema);
    const b = await instance(schema);
    try {
      const keys = ['global/k0', 'global/k1', 'global/k2'];
      await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const writer = i % 2 === 0 ? a : b;
          return writer.service.create(alice, { key: keys[i % keys.length]!, value: `w${i}` });
        }),
      );
      const committed = await a.pool.query<{ id: string }>('SELECT id FROM event_outbox ORDER BY id');
      expect(committed.rows).toHaveLength(200);
      await vi.waitFor(() => expect([a.seen.length, b.seen.length]).toEqual([200, 200]), { timeout: 10_000 });

      const ids = b.seen.map((e) => e.id);
      expect(a.seen.map((e) => e.id)).toEqual(ids);
      expect(ids).toEqual(committed.rows.map((r) => Number(r.id)));
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
      for (const key of keys) {
        const versions = b.seen.filter((e) => target(e)?.key === key).map((e) => target(e)!.version);
        expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
        expect((await a.service.get(alice, key)).version).toBe(versions.length);
      }
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('delivers nothing past an id still in flight, then both in id order; passes an id rolled back', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    const a = await instance(schema);
    const b = await instance(schema);
    try {
      const first = await inFlight(a.pool, 'global/first');
      await a.service.create(alice, { key: 'global/second', value: 'v' });
      expect((await outboxEventsAfter(a.pool, 0, 10)).map((e) => target(e)?.key)).toEqual(['global/second']);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(b.seen).toEqual([]); // 'second' has the larger id: it waits for 'first'
      await first.query('COMMIT');
      first.release();
      b.relay.catchUp();
      await vi.waitFor(() => expect(b.seen).toHaveLength(2), WAIT);
      expect(b.seen.map((e) => target(e)?.key)).toEqual(['global/first', 'global/second']);
      expect(b.seen[0]!.id).toBeLessThan(b.seen[1]!.id);

      const doomed = await inFlight(a.pool, 'global/doomed');
      await a.service.create(alice, { key: 'global/third', value: 'v' });
      await doomed.query('ROLLBACK');
      doomed.release();
      await vi.waitFor(() => expect(b.seen).toHaveLength(3), WAIT);
      expect(target(b.seen[2]!)?.key).toBe('global/third');
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('skips no event of many concurrent writers on two instances, some rolling back', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    const a = await instance(schema);
    const b = await instance(schema);
    try {
      const writers = Array.from({ length: 8 }, async (_, lane) => {
        const writer = lane % 2 === 0 ? a : b;
        for (let i = 0; i < 40; i++) {
          await writer.service.create(alice, { key: `global/lane${lane}/${i}`, value: `w${lane}.${i}` });
        }
      });
      // Meanwhile transactions that take event ids, stay open a moment and roll back: gaps that never fill.
      const doomed = (async () => {
        for (let i = 0; i < 20; i++) {
          const client = await inFlight(a.pool, `global/doomed/${i}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          await client.query('ROLLBACK');
          client.release();
        }
      })();
      await Promise.all([...writers, doomed]);
      const committed = (await outboxEventsAfter(a.pool, 0, 10_000)).map((e) => e.id);
      expect(committed).toHaveLength(8 * 40);
      await vi.waitFor(() => expect([a.seen.length, b.seen.length]).toEqual([320, 320]), {
        timeout: 15_000,
      });
      expect(a.seen.map((e) => e.id)).toEqual(committed);
      expect(b.seen.map((e) => e.id)).toEqual(committed);
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('catches up from its cursor after a restart, and after its listening connection was lost', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    const a = await instance(schema);
    let b = await instance(schema);
    try {
      await a.service.create(alice, { key: 'global/one', value: '1' });
      await vi.waitFor(() => expect(b.seen).toHaveLength(1), WAIT);
      const cursor = b.relay.cursor;
      await b.close();
      await a.service.create(alice, { key: 'global/two', value: '2' });
      await a.service.create(alice, { key: 'global/three', value: '3' });
      b = await instance(schema, cursor, 500);
      await vi.waitFor(
        () => expect(b.seen.map((e) => target(e)!.key)).toEqual(['global/two', 'global/three']),
        WAIT,
      );

      const pid = b.notifications.listenerPid;
      await a.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      // Committed before B listens again (500 ms later): its NOTIFY is lost, the resync reads it.
      await a.service.create(alice, { key: 'global/four', value: '4' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(b.notifications.listenerPid).toBeUndefined();
      await vi.waitFor(() => expect(b.seen.map((e) => target(e)!.key)).toContain('global/four'), {
        timeout: 5_000,
      });
      expect(b.notifications.listenerPid).not.toBe(pid);
      expect(b.seen.map((e) => e.id)).toEqual(a.seen.slice(1).map((e) => e.id));
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });
});
