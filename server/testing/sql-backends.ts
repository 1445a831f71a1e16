/**
 * For tests that run the same scenario on both databases: a real PostgreSQL started for the test file (when
 * the machine has one; skipped with a warning otherwise) and a fresh SQLite file or PostgreSQL schema per use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../db/open-database';
import { PostgresSqlPort, SqliteSqlPort, type SqlPort } from '../db/sql';
import { freshTestSchema, postgresMissingReason, startTestPostgres, type TestPostgres } from './postgres';

export interface OpenedSql {
  sql: SqlPort;
  close(): Promise<void>;
}

/** One database to run a scenario on: its name, whether it is skipped here, and how to open a fresh one. */
export type SqlBackend = [
  name: 'SQLite' | 'PostgreSQL',
  open: (label: string) => Promise<OpenedSql>,
  skip: boolean,
];

/**
 * Registers the file's hooks (PostgreSQL started before its tests and stopped after, the SQLite folder removed)
 * and answers both backends, for `describe.each`. `what` names the tests in the skip warning.
 */
export function sqlBackends(what: string): SqlBackend[] {
  const missing = postgresMissingReason();
  if (missing) console.warn(`PostgreSQL ${what} tests skipped: ${missing}`);
  const root = mkdtempSync(join(tmpdir(), 'pipework-sql-'));
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    if (!missing) postgres = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  let files = 0;
  return [
    [
      'SQLite',
      async (label) => {
        const db = openDatabase(join(root, `${label}-${++files}.sqlite`));
        return { sql: new SqliteSqlPort(db), close: async () => void db.close() };
      },
      false,
    ],
    [
      'PostgreSQL',
      async (label) => {
        const schema = await freshTestSchema(postgres!.url, label);
        return { sql: new PostgresSqlPort(schema.pool(4)), close: () => schema.drop() };
      },
      Boolean(missing),
    ],
  ];
}
