// The outbox's notifications on a real PostgreSQL: a write that follows another carries the earlier one's
// NOTIFY in its own commit (payload: its highest event id), the last one is announced on its own (payload
// ''), and a carrier that rolled back leaves its duty to a NOTIFY of its own.
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { useTestPostgres } from '../testing/postgres-cluster';
import type { Property } from '../../shared/property';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PropertyService } from '../store/property-service';
import { makePrincipal } from '../store/test-fixtures';
import { freshTestSchema, type TestSchema } from '../testing/postgres';
import { EventBus } from './event-bus';
import { OutboxAnnouncer } from './outbox-announcer';
import { migrateEventOutbox, outboxHead, outboxWriter } from './postgres-event-outbox';

const cluster = useTestPostgres('PostgreSQL outbox announcer tests');

const alice = makePrincipal('alice', { admin: true });
/** Long enough that a write started right after another always claims the duty first. */
const FALLBACK_MS = 300;

/** A store wired as the server wires it, and every notification on the schema's channel. */
async function wired(schema: TestSchema) {
  const pool = schema.pool(4);
  await migrateEventOutbox(pool);
  const announcer = new OutboxAnnouncer(pool, () => undefined, schema.channel, FALLBACK_MS);
  const store = await PostgresPropertyStore.open(pool, {
    beforeCommit: outboxWriter({ channel: schema.channel, notify: 'none', carrier: announcer }),
    afterCommit: () => announcer.committed(),
  });
  const listener = new pg.Client(schema.connection);
  await listener.connect();
  const payloads: string[] = [];
  listener.on('notification', (n) => void payloads.push(n.payload ?? ''));
  await listener.query(`LISTEN "${schema.channel}"`);
  return {
    pool,
    announcer,
    payloads,
    service: new PropertyService({ store, events: new EventBus(), eventsFromStore: true }),
    async close() {
      announcer.close();
      await listener.end();
    },
  };
}

describe.skipIf(cluster.missing !== undefined)('OutboxAnnouncer', () => {
  it('lets the next write carry the notification and announces the last one on its own', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'announce');
    const w = await wired(schema);
    try {
      await w.service.create(alice, { key: 'global/a', value: 'first' });
      await w.service.create(alice, { key: 'global/b', value: 'second' });
      const second = await outboxHead(w.pool);
      await vi.waitFor(() => expect(w.payloads).toHaveLength(2), { timeout: 5_000 });
      // The second write's commit announced the first; the second was announced alone after the wait.
      expect(w.payloads).toEqual([String(second), '']);
      await new Promise((resolve) => setTimeout(resolve, FALLBACK_MS * 2));
      expect(w.payloads).toHaveLength(2); // nothing announced twice
    } finally {
      await w.close();
      await schema.drop();
    }
  });

  it('announces on its own when the write carrying the notification rolled back', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'announce');
    const w = await wired(schema);
    try {
      await w.service.create(alice, { key: 'global/a', value: 'first' });
      // A second writer takes the duty in its statement, then its transaction rolls back.
      const client = await w.pool.connect();
      await client.query('BEGIN');
      const writer = outboxWriter({ channel: schema.channel, notify: 'none', carrier: w.announcer });
      const target: Property = {
        uuid: 'u',
        key: 'global/x',
        value: 'v',
        type: 'text/plain',
        created: 1,
        updated: null,
        timeToLive: null,
        defaultValue: null,
        version: 1,
      };
      const settle = await writer(client, [{ kind: 'created', origin: null, target }], { actor: 'alice' });
      expect(settle).toBeTypeOf('function');
      await client.query('ROLLBACK');
      client.release();
      settle!(false);
      await vi.waitFor(() => expect(w.payloads).toEqual(['']), { timeout: 5_000 });
    } finally {
      await w.close();
      await schema.drop();
    }
  });

  it('sends no notification while no events wait for one', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'announce');
    const w = await wired(schema);
    try {
      await w.service.create(alice, { key: 'global/a', value: 'one' });
      await vi.waitFor(() => expect(w.payloads).toEqual(['']), { timeout: 5_000 });
      // Nothing committed since: a write's hook is not given the duty, and no timer sends again.
      expect(w.announcer.carry()).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, FALLBACK_MS * 2));
      expect(w.payloads).toEqual(['']);
    } finally {
      await w.close();
      await schema.drop();
    }
  });
});
