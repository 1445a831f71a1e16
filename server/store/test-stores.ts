/**
 * Property stores for tests that run on both databases: SQLite in a file of its own (so `runQuery` goes
 * through its read-only worker) and PostgreSQL on a throwaway cluster started for the test file, when its
 * binaries are there. Call `testStoresOnBothDatabases` at the top of a test file, then `describe.each` it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PropertyStore } from '../../shared/property';
import { openDatabase } from '../db';
import { freshTestSchema } from '../testing/postgres';
import { useTestPostgres } from '../testing/postgres-cluster';
import { PostgresPropertyStore } from './postgres/postgres-property-store';
import { SqlitePropertyStore } from './sqlite/sqlite-property-store';

/** A fresh, empty store and how to release it with its storage. */
export interface TestStore {
  store: PropertyStore;
  dispose(): Promise<void>;
}

export type TestStoreFactory = () => Promise<TestStore>;

async function sqliteTestStore(prefix: string): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), `pipework-${prefix}-`));
  const db = openDatabase(join(dir, 'db.sqlite'));
  const store = new SqlitePropertyStore(db);
  return {
    store,
    dispose: async () => {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The databases by name, each with a factory of fresh stores; `prefix` names their files and schemas. */
export function testStoresOnBothDatabases(prefix: string): [string, TestStoreFactory][] {
  const cluster = useTestPostgres(`The PostgreSQL cases of ${prefix}`);
  const databases: [string, TestStoreFactory][] = [['SQLite', () => sqliteTestStore(prefix)]];
  if (cluster.missing) return databases;
  databases.push([
    'PostgreSQL',
    async () => {
      const schema = await freshTestSchema(cluster.postgres.url, prefix);
      const store = await PostgresPropertyStore.open(schema.pool());
      return { store, dispose: schema.drop };
    },
  ]);
  return databases;
}
