// The IAM storage contract on SQLite (a file, as the server opens it) and on PostgreSQL (a fresh schema of a
// throwaway cluster per test; two ports on one schema are two instances, with the sync bridge for PEL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../db';
import { PostgresSqlPort, SqliteSqlPort } from '../db/sql';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../testing/postgres';
import type { BridgeConnection } from '../store/postgres/sync-bridge/bridge-protocol';
import { PostgresSyncBridge } from '../store/postgres/sync-bridge/postgres-sync-bridge';
import { runIamStoreContract } from './iam-store.contract';

// On SQLite an installation is one instance: its "second instance" is the same database handle, so the
// concurrency cases are concurrent calls within one process.
runIamStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipework-iam-store-'));
  const db: SqliteDatabase = openDatabase(join(dir, 'pipework.sqlite'));
  const port = new SqliteSqlPort(db);
  return {
    port: () => port,
    async dispose() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL IAM store tests skipped: ${pgMissing}`);
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

if (!pgMissing) {
  runIamStoreContract('PostgreSQL', async () => {
    const schema = await freshTestSchema(postgres!.url, 'iam');
    // PEL's user lookups on PostgreSQL go through the sync bridge, as in the server.
    const bridge = await PostgresSyncBridge.start({ connection: schema.connection as BridgeConnection });
    return {
      port: () => new PostgresSqlPort(schema.pool()),
      syncReader: bridge,
      async dispose() {
        await bridge.close();
        await schema.drop();
      },
    };
  });
}
