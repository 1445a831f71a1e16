/** The parts for the database the server was configured with (`database-parts.ts`). */
import type { ServerConfig } from '../config';
import type { ServerDatabase } from '../db/server-database';
import type { Logger } from '../logging/logger';
import type { DatabaseParts } from './database-parts';
import { openPostgresParts } from './postgres-parts';
import { sqliteParts } from './sqlite-parts';

export async function openDatabaseParts(
  database: ServerDatabase,
  config: ServerConfig,
  logger: Logger,
): Promise<DatabaseParts> {
  return database.kind === 'sqlite'
    ? sqliteParts(database, config)
    : openPostgresParts(database, config, logger);
}
