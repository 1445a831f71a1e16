// The PostgreSQL event outbox on a real throwaway cluster: a write's events are what PropertyService
// publishes (key, payload, actor, depth), they commit or roll back with the write, and old rows are pruned.
import { describe, expect, it } from 'vitest';
import { useTestPostgres } from '../testing/postgres-cluster';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PropertyService } from '../store/property-service';
import { errorCode, makePrincipal } from '../store/test-fixtures';
import { freshTestSchema } from '../testing/postgres';
import { EventBus, type PipeworkEvent } from './event-bus';
import { runAtEventDepth } from './event-context';
import {
  migrateEventOutbox,
  outboxEventsAfter,
  outboxHead,
  outboxWriter,
  pruneOutbox,
} from './postgres-event-outbox';

const cluster = useTestPostgres('PostgreSQL event outbox tests');

const alice = makePrincipal('alice', { admin: true });
const strip = ({ eventKey, payload, actor, depth }: PipeworkEvent) => ({ eventKey, payload, actor, depth });

describe.skipIf(cluster.missing !== undefined)('PostgreSQL event outbox', () => {
  it("holds exactly the events PropertyService publishes, for every kind of write, the trash bin's too", async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    try {
      const pool = schema.pool();
      await migrateEventOutbox(pool);
      let now = 1_700_000_000_000;
      const store = await PostgresPropertyStore.open(pool, {
        clock: () => now,
        beforeCommit: outboxWriter(),
      });
      // Publishing locally as well (eventsFromStore false) to compare the two paths on the same writes.
      const bus = new EventBus();
      const published: PipeworkEvent[] = [];
      bus.subscribe((event) => void published.push(event));
      const service = new PropertyService({ store, events: bus });

      await service.create(alice, { key: 'global/a', value: { n: 1 }, timeToLive: 60 });
      await service.put(alice, { key: 'global/a', value: 'two' });
      await service.copy(alice, 'global/a', 'global/b');
      await service.move(alice, 'global/b', 'global/c');
      await runAtEventDepth(2, () => service.put(alice, { key: 'global/c', value: 'deep' }));
      await service.create(alice, { key: 'global/d', value: 'x', timeToLive: 1 });
      now += 120_000;
      expect(await service.deleteExpired()).toBe(1); // no principal: the actor is null
      await service.deleteMatching(alice, 'global/*');
      await service.create(alice, { key: 'global/e', value: 'binned' });
      await service.marks.trash(alice, { key: 'global/e' });
      await service.marks.restore(alice, 'global/e');
      await bus.idle();

      const stored = await outboxEventsAfter(pool, 0, 100);
      expect(stored.map((e) => e.eventKey)).toEqual([
        'property.created',
        'property.changed',
        'property.created',
        'property.deleted',
        'property.created',
        'property.changed',
        'property.created',
        'property.deleted',
        'property.deleted',
        'property.deleted',
        'property.created',
        'property.deleted',
        'property.created',
      ]);
      expect(stored.map(strip)).toEqual(published.map(strip));
      expect(stored[4]!.depth).toBe(0);
      expect(stored[5]!.depth).toBe(2);
      expect(stored[7]!.actor).toBeNull();
      expect(stored[8]!.actor).toBe('alice');
      expect(stored[0]!.actor).toBe('alice');
      const ids = stored.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(await outboxHead(pool)).toBe(ids.at(-1));
    } finally {
      await schema.drop();
    }
  });

  it('writes nothing for a write that fails or changes nothing, and PropertyService publishes nothing itself', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    try {
      const pool = schema.pool();
      await migrateEventOutbox(pool);
      const store = await PostgresPropertyStore.open(pool, { beforeCommit: outboxWriter() });
      const bus = new EventBus();
      const published: PipeworkEvent[] = [];
      bus.subscribe((event) => void published.push(event));
      const service = new PropertyService({ store, events: bus, eventsFromStore: true });

      await service.create(alice, { key: 'global/a', value: 'one' });
      expect(await errorCode(service.put(alice, { key: 'global/a', value: 'x', version: 7 }))).toBe(
        'CONFLICT',
      );
      await service.create(alice, { key: 'global/a', value: 'skip' }, 'skip');
      expect(await service.remove(alice, 'global/none')).toBeNull();
      await bus.idle();

      expect((await outboxEventsAfter(pool, 0, 100)).map((e) => e.eventKey)).toEqual(['property.created']);
      expect(published).toEqual([]);
    } finally {
      await schema.drop();
    }
  });

  it('takes no common lock: a second writer commits while the first is still in flight', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    try {
      const pool = schema.pool();
      await migrateEventOutbox(pool);
      const writer = outboxWriter();
      const store = await PostgresPropertyStore.open(pool, { beforeCommit: writer });
      const first = await pool.connect();
      await first.query('BEGIN');
      const property = {
        uuid: 'u1',
        key: 'global/first',
        value: 'v',
        type: 'text/plain',
        created: 1,
        updated: null,
        timeToLive: null,
        defaultValue: null,
        version: 1,
      };
      await writer(first, [{ kind: 'created', origin: null, target: property }], { actor: 'alice' });
      await store.save({ key: 'global/second', value: 'v' }); // does not wait for the first
      const visible = await outboxEventsAfter(pool, 0, 10);
      expect(visible.map((e) => (e.payload as { target: { key: string } }).target.key)).toEqual([
        'global/second',
      ]);
      await first.query('COMMIT');
      first.release();
      const events = await outboxEventsAfter(pool, 0, 10);
      // Ids are taken in write order, not commit order: the relay waits at the gap (postgres-event-relay).
      expect(events.map((e) => (e.payload as { target: { key: string } }).target.key)).toEqual([
        'global/first',
        'global/second',
      ]);
    } finally {
      await schema.drop();
    }
  });

  it('prunes events older than the retention, with their listener claims', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'events');
    try {
      const pool = schema.pool();
      await migrateEventOutbox(pool);
      const store = await PostgresPropertyStore.open(pool, { beforeCommit: outboxWriter() });
      for (const key of ['global/a', 'global/b', 'global/c']) await store.save({ key, value: key });
      const [a, b, c] = await outboxEventsAfter(pool, 0, 10);
      await pool.query(`UPDATE event_outbox SET created = now() - interval '2 days' WHERE id <= $1`, [b!.id]);
      await pool.query(
        `INSERT INTO event_listener_claim (event_id, listener_key) VALUES ($1, 'p'), ($2, 'p')`,
        [a!.id, c!.id],
      );

      expect(await pruneOutbox(pool, 24 * 3600_000)).toBe(2);
      expect((await outboxEventsAfter(pool, 0, 10)).map((e) => e.id)).toEqual([c!.id]);
      const claims = await pool.query<{ event_id: string }>('SELECT event_id FROM event_listener_claim');
      expect(claims.rows.map((r) => Number(r.event_id))).toEqual([c!.id]);
      expect(await pruneOutbox(pool, 24 * 3600_000)).toBe(0);
    } finally {
      await schema.drop();
    }
  });
});
