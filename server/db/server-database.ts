/**
 * The database of one server instance: the embedded SQLite file, or a PostgreSQL pool that several instances
 * share, with the listening connection that carries their notifications. Opened once by the composition root.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { pgDriver } from './pg-driver';
import type { ServerConfig } from '../config';
import type { Logger } from '../logging/logger';
import { type SqliteDatabase, openDatabase } from './open-database';
import { PostgresNotifications } from './postgres-notifications';
import { PostgresSqlPort, SqliteSqlPort } from './sql';

export interface SqliteServerDatabase {
  kind: 'sqlite';
  db: SqliteDatabase;
  sql: SqliteSqlPort;
  close(): Promise<void>;
}

export interface PostgresServerDatabase {
  kind: 'postgres';
  pool: pg.Pool;
  sql: PostgresSqlPort;
  notifications: PostgresNotifications;
  /** Tells this instance's notifications from the others'. */
  instanceId: string;
  /** The connection settings, for connections of their own (a worker's pool). */
  connection: pg.ClientConfig;
  close(): Promise<void>;
}

/** Whether the database answers now (the readiness probe): a trivial query within `timeoutMs`. */
export async function databaseAnswers(database: ServerDatabase, timeoutMs = 2_000): Promise<boolean> {
  if (database.kind === 'sqlite') {
    database.db.prepare('SELECT 1').get();
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      database.pool.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export type ServerDatabase = SqliteServerDatabase | PostgresServerDatabase;

export async function openServerDatabase(config: ServerConfig, logger: Logger): Promise<ServerDatabase> {
  if (!config.database) {
    const db = openDatabase(config.databaseFile);
    return {
      kind: 'sqlite',
      db,
      sql: new SqliteSqlPort(db),
      async close() {
        db.close();
      },
    };
  }
  const connection: pg.ClientConfig = {
    connectionString: config.database.url,
    connectionTimeoutMillis: config.database.connectTimeoutMs,
  };
  const pool = new (pgDriver().Pool)({ ...connection, max: config.database.poolMax });
  // An idle connection the server dropped must not crash the process; the pool replaces it.
  pool.on('error', (error) => logger.warn({ err: error }, 'a pooled PostgreSQL connection failed'));
  let notifications: PostgresNotifications;
  try {
    notifications = await PostgresNotifications.start(pool, connection, logger);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind: 'postgres',
    pool,
    sql: new PostgresSqlPort(pool),
    notifications,
    instanceId: randomUUID(),
    connection,
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}

/** The SQLite handle of an installation on SQLite (tests and benches that seed rows directly). */
export function sqliteDb(database: ServerDatabase): SqliteDatabase {
  if (database.kind !== 'sqlite') throw new Error('This needs the SQLite database.');
  return database.db;
}
