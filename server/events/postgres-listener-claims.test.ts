// event.listen once per installation, on a real PostgreSQL schema shared by two instances (each with its
// pool, listening connection, `startPostgresEvents` and a dispatcher): every event fires each listener once
// in total, and a dispatcher starting after a time without any catches up on what was missed, never twice.
import { describe, expect, it, vi } from 'vitest';
import { useTestPostgres } from '../testing/postgres-cluster';
import type { Principal } from '../../shared/auth';
import type { PipelineScript } from '../../shared/pipeline';
import { PostgresJobLock } from '../db';
import { PostgresNotifications } from '../db/postgres-notifications';
import { silentLogger } from '../logging/logger';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PropertyService } from '../store/property-service';
import { makePrincipal } from '../store/test-fixtures';
import { freshTestSchema, type TestSchema } from '../testing/postgres';
import { EventBus } from './event-bus';
import { EventListenDispatcher } from './event-listen-dispatcher';
import { migrateEventOutbox, outboxWriter } from './postgres-event-outbox';
import { startPostgresEvents } from './postgres-events';

/** Generous: the machine running the tests may be busy. */
const WAIT = { timeout: 5_000 };

const cluster = useTestPostgres('PostgreSQL listener claim tests');

const ann = makePrincipal('ann', { developer: true });
const LISTENER = `pipeline:
  - event.listen:
      key: property.created
  - log: hi
`;
const PIPELINE_KEY = 'global/app/a/pipeline/p';

/** Every listener run of the installation: which instance ran it for which created key. */
type Runs = { instance: string; key: string }[];

/** One instance as the wiring builds it on PostgreSQL (`startPostgresEvents`), its dispatcher started when asked. */
async function instance(schema: TestSchema, name: string, runs: Runs) {
  const pool = schema.pool(4);
  const notifications = await PostgresNotifications.start(pool, schema.connection, silentLogger());
  await migrateEventOutbox(pool);
  const store = await PostgresPropertyStore.open(pool, {
    beforeCommit: outboxWriter({ channel: schema.channel }),
  });
  const bus = new EventBus();
  const events = await startPostgresEvents({
    pool,
    notifications,
    bus,
    lock: new PostgresJobLock(pool),
    logger: silentLogger(),
    channel: schema.channel,
  });
  await notifications.ready();
  const service = new PropertyService({ store, events: bus, eventsFromStore: true });
  let dispatcher: EventListenDispatcher | undefined;
  return {
    pool,
    service,
    bus,
    relay: events.relay,
    async startDispatching() {
      dispatcher = new EventListenDispatcher({
        properties: service,
        principalOf: async (uuid) => (uuid === 'ann' ? ann : null),
        run: async (script: PipelineScript, _principal: Principal) => {
          const body = script.body as { target: { key: string } };
          runs.push({ instance: name, key: body.target.key });
        },
        utilities: () => ({}),
        logger: silentLogger(),
        coordination: events.claims,
      });
      await dispatcher.start();
    },
    /** Stops dispatching for good on this instance, writing its dispatch mark. */
    async stopDispatching() {
      dispatcher?.stop();
      await bus.idle();
      await events.claims.close();
    },
    async close() {
      await this.stopDispatching();
      await events.close();
      await notifications.close();
    },
  };
}

describe.skipIf(cluster.missing !== undefined)(
  'event.listen across instances (PostgresListenerClaims)',
  () => {
    it('fires the listener once per event in the whole installation, on one instance or the other', async () => {
      const schema = await freshTestSchema(cluster.postgres.url, 'events');
      const runs: Runs = [];
      const a = await instance(schema, 'A', runs);
      const b = await instance(schema, 'B', runs);
      try {
        await a.startDispatching();
        await b.startDispatching();
        await a.service.create(ann, { key: PIPELINE_KEY, value: LISTENER });
        const keys = Array.from({ length: 40 }, (_, i) => `global/x/${i}`);
        await Promise.all(keys.map((key, i) => (i % 2 ? a : b).service.create(ann, { key, value: 'v' })));
        const expected = [PIPELINE_KEY, ...keys].sort();
        await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(expected.length), {
          timeout: 5_000,
        });
        await Promise.all([a.bus.idle(), b.bus.idle()]);
        await new Promise((resolve) => setTimeout(resolve, 100)); // a second run would have come by now
        expect(runs.map((r) => r.key).sort()).toEqual(expected);
        const claimed = await a.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM event_listener_claim',
        );
        expect(claimed.rows[0]!.n).toBe(expected.length);
      } finally {
        await a.close();
        await b.close();
        await schema.drop();
      }
    });

    it('catches up at start on events committed while no instance dispatched, skipping claimed ones', async () => {
      const schema = await freshTestSchema(cluster.postgres.url, 'events');
      const runs: Runs = [];
      const a = await instance(schema, 'A', runs);
      const writer = await instance(schema, 'writer', runs); // never dispatches
      try {
        await a.startDispatching();
        await writer.service.create(ann, { key: PIPELINE_KEY, value: LISTENER });
        await writer.service.create(ann, { key: 'global/before', value: 'v' });
        await vi.waitFor(
          () => expect(runs.map((r) => r.key).sort()).toEqual([PIPELINE_KEY, 'global/before']),
          WAIT,
        );
        await a.stopDispatching();
        const mark = Number(
          (await a.pool.query<{ event_id: string }>('SELECT event_id FROM event_dispatch_mark')).rows[0]!
            .event_id,
        );
        expect(mark).toBe(a.relay.cursor);

        // Nobody dispatches now: the events wait in the outbox.
        for (const key of ['global/down1', 'global/down2', 'global/down3']) {
          await writer.service.create(ann, { key, value: 'v' });
        }
        const down3 = (await writer.relay.eventsAfter(mark, 10)).at(-1)!;
        // An instance had claimed down3 and died before running it: at most once means it stays unrun.
        await a.pool.query(`INSERT INTO event_listener_claim (event_id, listener_key) VALUES ($1, $2)`, [
          down3.id,
          PIPELINE_KEY,
        ]);

        const b = await instance(schema, 'B', runs);
        try {
          await b.startDispatching();
          await writer.service.create(ann, { key: 'global/after', value: 'v' });
          await vi.waitFor(() => expect(runs.map((r) => r.key)).toContain('global/after'), WAIT);
          await b.bus.idle();
          // Runs start in any order (each first looks up its author), so compare them as sets.
          expect(runs.map((r) => `${r.instance}:${r.key}`).sort()).toEqual([
            `A:${PIPELINE_KEY}`,
            'A:global/before',
            'B:global/after',
            'B:global/down1',
            'B:global/down2',
          ]);
          await b.stopDispatching();
          const raised = await b.pool.query<{ event_id: string }>('SELECT event_id FROM event_dispatch_mark');
          expect(Number(raised.rows[0]!.event_id)).toBe(b.relay.cursor);
        } finally {
          await b.close();
        }
      } finally {
        await a.close();
        await writer.close();
        await schema.drop();
      }
    });
  },
);
