// Following events for an SSE client: on one process (no history) `Last-Event-ID` changes nothing; on
// PostgreSQL (a relay's outbox history, real cluster) a client resuming on another instance gets what it
// missed and then the live events, each once, in id order, also while writes go on during the resume.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresNotifications } from '../db/postgres-notifications';
import { silentLogger } from '../logging/logger';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PropertyService } from '../store/property-service';
import { makePrincipal } from '../store/test-fixtures';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../testing/postgres';
import { EventBus, type PipeworkEvent } from './event-bus';
import { followEvents, parseLastEventId } from './follow-events';
import { outboxWriter } from './postgres-event-outbox';
import { PostgresEventRelay } from './postgres-event-relay';

/** Generous: the machine running the tests may be busy. */
const WAIT = { timeout: 5_000 };

describe('parseLastEventId', () => {
  it.each([
    ['42', 42],
    [' 7 ', 7],
    ['0', 0],
    [undefined, undefined],
    ['', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['abc', undefined],
    ['9999999999999999', undefined],
  ])('reads %j as %j', (header, id) => expect(parseLastEventId(header)).toBe(id));
});

describe('followEvents without a history (one process)', () => {
  it('ignores Last-Event-ID and delivers the live events in order, one at a time', async () => {
    const bus = new EventBus();
    bus.publish('before', {});
    await bus.idle();
    const got: string[] = [];
    let running = 0;
    const stop = followEvents(
      bus,
      async (event) => {
        running += 1;
        expect(running).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        got.push(event.eventKey);
        running -= 1;
      },
      (error) => {
        throw error;
      },
      { lastEventId: 0 },
    );
    bus.publish('one', {});
    bus.publish('two', {});
    await vi.waitFor(() => expect(got).toEqual(['one', 'two']), WAIT);
    stop();
    bus.publish('three', {});
    await bus.idle();
    expect(got).toEqual(['one', 'two']);
  });
});

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL follow tests skipped: ${pgMissing}`);
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);

afterAll(() => postgres?.stop());

/** An instance's relay and bus, and a writer on the same schema; `close` ends all. */
async function relayed() {
  const schema = await freshTestSchema(postgres!.url, 'events');
  const pool = schema.pool();
  const store = await PostgresPropertyStore.open(pool, {
    beforeCommit: outboxWriter({ channel: schema.channel }),
  });
  const writer = new PropertyService({ store, events: new EventBus(), eventsFromStore: true });
  const notifications = await PostgresNotifications.start(pool, schema.connection, silentLogger());
  const bus = new EventBus();
  const relay = await PostgresEventRelay.start({
    pool,
    notifications,
    bus,
    logger: silentLogger(),
    channel: schema.channel,
  });
  const alice = makePrincipal('alice', { admin: true });
  return {
    bus,
    relay,
    write: (i: number) => writer.create(alice, { key: `global/e${i}`, value: String(i) }),
    async close() {
      await relay.close();
      await notifications.close();
      await schema.drop();
    },
  };
}

const failOnError = (error: unknown) => {
  throw error;
};

describe.skipIf(pgMissing !== undefined)('followEvents with the PostgreSQL outbox as history', () => {
  it('resumes after Last-Event-ID on another instance: missed events, then live ones, each once', async () => {
    const { bus, relay, write, close } = await relayed();
    try {
      for (let i = 1; i <= 6; i++) await write(i);
      const all = await relay.eventsAfter(0, 100);
      expect(all).toHaveLength(6);

      const got: PipeworkEvent[] = [];
      const stop = followEvents(
        bus,
        async (event) => {
          await new Promise((resolve) => setTimeout(resolve, 2)); // a client that takes its time
          got.push(event);
        },
        failOnError,
        { lastEventId: all[1]!.id, pageSize: 2 },
      );
      // Written while the client is still resuming: each must come once, whichever way it arrives.
      await Promise.all([7, 8, 9].map(write));
      for (let i = 10; i <= 11; i++) await write(i);
      await vi.waitFor(() => expect(got.length).toBeGreaterThanOrEqual(9), WAIT);
      await relay.idle();
      await bus.idle();
      await new Promise((resolve) => setTimeout(resolve, 50));
      stop();

      const expected = await relay.eventsAfter(all[1]!.id, 100);
      expect(expected).toHaveLength(9);
      expect(got.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      expect(got.map((e) => (e.payload as { target: { value: string } }).target.value).slice(0, 4)).toEqual([
        '3',
        '4',
        '5',
        '6',
      ]);
    } finally {
      await close();
    }
  });

  it('treats a Last-Event-ID beyond the newest event as "now", so live events still arrive', async () => {
    const { bus, relay, write, close } = await relayed();
    try {
      await write(1);
      const got: PipeworkEvent[] = [];
      const stop = followEvents(bus, (event) => void got.push(event), failOnError, {
        lastEventId: 1_000_000,
      });
      await write(2);
      await vi.waitFor(() => expect(got).toHaveLength(1), WAIT);
      expect((got[0]!.payload as { target: { key: string } }).target.key).toBe('global/e2');
      expect(relay.cursor).toBe(got[0]!.id);
      stop();
    } finally {
      await close();
    }
  });
});
