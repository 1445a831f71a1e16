// The outbox prune job on a real PostgreSQL schema, run by two instances at once through the installation's
// job lock: old events go once, recent ones stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresJobLock } from '../db';
import { PostgresNotifications } from '../db/postgres-notifications';
import { silentLogger } from '../logging/logger';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../testing/postgres';
import { EventBus } from './event-bus';
import { outboxWriter } from './postgres-event-outbox';
import { PostgresEventRelay } from './postgres-event-relay';
import { startOutboxPrune } from './outbox-prune-job';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL outbox prune tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);

afterAll(() => postgres?.stop());

describe.skipIf(pgMissing !== undefined)('startOutboxPrune', () => {
  it('deletes events older than the retention once between two instances, and keeps the rest', async () => {
    const schema = await freshTestSchema(postgres!.url, 'events');
    const instances = await Promise.all(
      [1, 2].map(async () => {
        const pool = schema.pool(3);
        const notifications = await PostgresNotifications.start(pool, schema.connection, silentLogger());
        const relay = await PostgresEventRelay.start({
          pool,
          notifications,
          bus: new EventBus(),
          logger: silentLogger(),
          channel: schema.channel,
        });
        const prune = startOutboxPrune(relay, { lock: new PostgresJobLock(pool), retentionMs: 3_600_000 });
        return { pool, notifications, relay, prune };
      }),
    );
    try {
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const store = await PostgresPropertyStore.open(a.pool, {
        beforeCommit: outboxWriter({ channel: schema.channel }),
      });
      for (const key of ['global/old1', 'global/old2', 'global/new']) await store.save({ key, value: 'v' });
      await a.pool.query(
        `UPDATE event_outbox SET created = now() - interval '2 hours' WHERE id IN (SELECT id FROM event_outbox ORDER BY id LIMIT 2)`,
      );

      const counts = await Promise.all([a.prune.runOnce(), b.prune.runOnce()]);
      expect(counts[0] + counts[1]).toBe(2);
      const left = await a.relay.eventsAfter(0, 10);
      expect(left.map((e) => (e.payload as { target: { key: string } }).target.key)).toEqual(['global/new']);
      expect(await a.prune.runOnce()).toBe(0);
    } finally {
      for (const instance of instances) {
        instance.prune.stop();
        await instance.relay.close();
        await instance.notifications.close();
      }
      await schema.drop();
    }
  });
});
