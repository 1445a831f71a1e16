/**
 * The event outbox on PostgreSQL: each property write inserts its events into `event_outbox` inside its own
 * transaction (the store's `beforeCommit` hook), so an event exists exactly when its change committed, and
 * every instance's relay (`postgres-event-relay.ts`) reads them from there. Ids are installation-wide but
 * writers take no common lock, so ids need not commit in id order: a reader may see id n+1 while n is still
 * in flight. The relay therefore delivers only an unbroken run of ids and waits at a gap until every
 * transaction that was in flight when it saw the gap has ended (`outboxSnapshot`): then the gap is filled
 * or never will be (a rollback). Events of one key still come in the order their writes committed, since a
 * write locks its property row before it takes its event ids. The NOTIFY is sent after the write commits
 * (`announceOutbox`), outside the transaction: a NOTIFY in it would serialize every commit of the database.
 */
import type { Pool, PoolClient } from 'pg';
import type { PropertyChange, WriteOptions } from '../../shared/property';
import type { BeforeCommitHook } from '../store/postgres/postgres-property-store';
import { migratePostgres, type PostgresMigration } from '../store/postgres/postgres-migrations';
import type { PipeworkEvent } from './event-bus';
import { currentEventOrigin } from './event-context';
import { propertyChangeEvents } from './property-change-events';

/** The NOTIFY channel the outbox announces new events on (payload: the highest new id). */
export const EVENTS_CHANNEL = 'pipework_events';

/**
 * The events module's tables: the outbox, the claims that make an `event.listen` run once per installation,
 * and the installation's dispatch high-water mark (`postgres-listener-claims.ts`).
 */
export const POSTGRES_EVENT_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'event outbox, listener claims and the dispatch mark',
    sql: `
      CREATE TABLE event_outbox (
        id bigserial PRIMARY KEY,
        event_key text NOT NULL,
        payload text NOT NULL,
        timestamp bigint NOT NULL,
        depth integer NOT NULL,
        actor text,
        created timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX event_outbox_created ON event_outbox (created);

      CREATE TABLE event_listener_claim (
        event_id bigint NOT NULL,
        listener_key text NOT NULL,
        PRIMARY KEY (event_id, listener_key)
      );

      CREATE TABLE event_dispatch_mark (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        event_id bigint NOT NULL
      );
      INSERT INTO event_dispatch_mark (event_id) VALUES (0);`,
  },
  {
    version: 2,
    description: 'the listener cascade an event was written in',
    sql: `ALTER TABLE event_outbox ADD COLUMN cascade text;`,
  },
];

/** Creates or upgrades the events module's tables (once, under the migration lock). */
export async function migrateEventOutbox(pool: Pool): Promise<void> {
  await migratePostgres(pool, 'events', POSTGRES_EVENT_MIGRATIONS);
}

export interface OutboxWriterOptions {
  /** Epoch milliseconds for the events' `timestamp`. Default `Date.now`. */
  clock?: () => number;
  /** Default `EVENTS_CHANNEL`. */
  channel?: string;
  /**
   * `commit` (default): NOTIFY in the write's transaction, sent when it commits (every such commit then waits
   * for the database's one notification lock: for occasional writers, e.g. the sync bridge's worker).
   * `none`: the caller announces after the commit (`OutboxAnnouncer`), as the server's store does.
   */
  notify?: 'commit' | 'none';
  /**
   * With `notify: 'none'`: asked in each write whether it carries the notification of the events committed
   * before it (`OutboxAnnouncer`); if so the NOTIFY is sent when it commits, and it reports how it ended.
   */
  carrier?: NotificationCarrier;
}

/** Told by the write carrying a notification how its transaction ended. */
export type CarrierSettle = (committed: boolean) => void;

/** Picks the one write at a time whose commit also announces the events committed before it. */
export interface NotificationCarrier {
  carry(): CarrierSettle | undefined;
}

/**
 * The `beforeCommit` hook of `PostgresPropertyStore.open`: the write's events (what `PropertyService`
 * publishes on SQLite) into the outbox, in the write's transaction, and a NOTIFY sent when it commits.
 */
export function outboxWriter(options: OutboxWriterOptions = {}): BeforeCommitHook {
  const clock = options.clock ?? Date.now;
  const channel = options.channel ?? EVENTS_CHANNEL;
  const notify = options.notify ?? 'commit';
  return async (client: PoolClient, changes: readonly PropertyChange[], write: WriteOptions) => {
    const events = propertyChangeEvents(changes, write.actor);
    if (events.length === 0) return;
    const origin = currentEventOrigin();
    const settle = notify === 'none' ? options.carrier?.carry() : undefined;
    // Inserted and announced in one statement (sent when the write commits): the payload is the highest id.
    const announce =
      notify === 'commit' || settle ? 'SELECT pg_notify($6, max(id)::text) FROM inserted' : 'SELECT $6::text';
    const statement = client.query(
      `WITH inserted AS (
         INSERT INTO event_outbox (event_key, payload, timestamp, depth, actor, cascade)
         SELECT event_key, payload, $3::bigint, $4::integer, actor, $7::text
         FROM unnest($1::text[], $2::text[], $5::text[]) WITH ORDINALITY AS e (event_key, payload, actor, n)
         ORDER BY n RETURNING id)
       ${announce}`,
      [
        events.map((e) => e.eventKey),
        events.map((e) => JSON.stringify(e.payload)),
        clock(),
        origin.depth,
        events.map((e) => e.actor),
        channel,
        origin.cascade,
      ],
    );
    // The carrier learns how its transaction ended: at once when its statement failed, else from the store.
    await statement.catch((error: unknown) => {
      settle?.(false);
      throw error;
    });
    return settle;
  };
}

interface OutboxRow {
  id: string;
  event_key: string;
  payload: string;
  timestamp: string;
  depth: number;
  actor: string | null;
  cascade: string | null;
}

const OUTBOX_COLUMNS = 'id, event_key, payload, timestamp, depth, actor, cascade';

function toEvent(row: OutboxRow): PipeworkEvent {
  return {
    id: Number(row.id),
    eventKey: row.event_key,
    payload: JSON.parse(row.payload) as unknown,
    timestamp: Number(row.timestamp),
    depth: row.depth,
    actor: row.actor,
    cascade: row.cascade,
  };
}

/** Up to `limit` outbox events after id `after`, in id (= commit) order. */
export async function outboxEventsAfter(
  db: Pool | PoolClient,
  after: number,
  limit: number,
): Promise<PipeworkEvent[]> {
  const result = await db.query<OutboxRow>(
    `SELECT ${OUTBOX_COLUMNS} FROM event_outbox WHERE id > $1 ORDER BY id LIMIT $2`,
    [after, limit],
  );
  return result.rows.map(toEvent);
}

/**
 * The current snapshot's bounds as text (`xid8`): `xmin`, the oldest transaction still in flight, and `xmax`,
 * the first not yet begun. Once a later `xmin` reaches an earlier `xmax`, every transaction that was in flight
 * at the earlier one has ended.
 */
export async function outboxSnapshot(db: Pool | PoolClient): Promise<{ xmin: bigint; xmax: bigint }> {
  const result = await db.query<{ xmin: string; xmax: string }>(
    `SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() AS s`,
  );
  const row = result.rows[0]!;
  return { xmin: BigInt(row.xmin), xmax: BigInt(row.xmax) };
}

/** The highest id in the outbox (0 when empty): where a relay starting now begins. */
export async function outboxHead(db: Pool | PoolClient): Promise<number> {
  const result = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM event_outbox');
  return Number(result.rows[0]?.id ?? 0);
}

/**
 * Deletes outbox rows older than `retentionMs` (by the database's clock), and the listener claims of those
 * events; returns how many events went. Run it from one instance at a time (an installation-wide job).
 */
export async function pruneOutbox(pool: Pool, retentionMs: number): Promise<number> {
  const pruned = await pool.query<{ n: number }>(
    `WITH gone AS (DELETE FROM event_outbox WHERE created < now() - $1 * interval '1 millisecond' RETURNING id),
     claims AS (DELETE FROM event_listener_claim c USING gone WHERE c.event_id = gone.id)
     SELECT count(*)::int AS n FROM gone`,
    [retentionMs],
  );
  return pruned.rows[0]!.n;
}
