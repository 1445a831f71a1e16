/**
 * The parts of an installation on PostgreSQL (`database-parts.ts`): the shared property store whose writes
 * record their events in the outbox (also those `@property.updateValue` makes through the synchronous
 * bridge), the relay that delivers them on every instance, the claims that run each `event.listen` pipeline
 * once, the shared cache, the advisory-lock job lock, and the IAM's notification feed and synchronous reader.
 */
import { PostgresCacheStore, loadCacheConfig } from '../cache';
import type { ServerConfig } from '../config';
import type { PostgresServerDatabase } from '../db/server-database';
import { PostgresJobLock } from '../db/installation-lock';
import type { DatabaseParts } from './database-parts';
import { EVENTS_CHANNEL, migrateEventOutbox, outboxWriter } from '../events/postgres-event-outbox';
import { OutboxAnnouncer } from '../events/outbox-announcer';
import { startPostgresEvents } from '../events/postgres-events';
import { postgresIamChangeFeed } from '../iam/iam-change-feed';
import type { Logger } from '../logging/logger';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { PostgresSyncBridge } from '../store/postgres/sync-bridge/postgres-sync-bridge';

export async function openPostgresParts(
  database: PostgresServerDatabase,
  config: ServerConfig,
  logger: Logger,
): Promise<DatabaseParts> {
  const { pool } = database;
  await migrateEventOutbox(pool);
  const syncBridge = await PostgresSyncBridge.start({
    connection: database.connection,
    outbox: { channel: EVENTS_CHANNEL },
    history: config.history,
  });
  let store: PostgresPropertyStore;
  let cache: PostgresCacheStore;
  // Writes take no common lock: their events are announced by a later write's commit, or on their own.
  const announcer = new OutboxAnnouncer(pool, (error) =>
    logger.warn({ err: error }, 'new events could not be announced; the relays poll'),
  );
  try {
    store = await PostgresPropertyStore.open(pool, {
      beforeCommit: outboxWriter({ notify: 'none', carrier: announcer }),
      afterCommit: () => announcer.committed(),
      syncBridge,
      history: config.history,
    });
    cache = await PostgresCacheStore.open(pool, config.cache ?? loadCacheConfig({}));
  } catch (error) {
    // The bridge's worker would otherwise keep the process alive after a failed start.
    await syncBridge.close();
    throw error;
  }
  const jobLock = new PostgresJobLock(pool);
  return {
    store,
    eventsFromStore: true,
    cache,
    jobLock,
    iam: {
      changeFeed: postgresIamChangeFeed(database.notifications, database.instanceId, (error) =>
        logger.error({ err: error }, 'an IAM change could not be announced to the other instances'),
      ),
      syncReader: syncBridge,
    },
    async startEvents(bus) {
      const events = await startPostgresEvents({
        pool,
        notifications: database.notifications,
        bus,
        lock: jobLock,
        logger,
      });
      return { coordination: events.claims, stop: () => events.close() };
    },
    async close() {
      announcer.close();
      await store.close();
    },
  };
}
