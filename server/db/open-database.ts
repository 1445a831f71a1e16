/** Opens the embedded SQLite database with the settings every module relies on (WAL, foreign keys, busy wait). */
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** Opens (creating when missing) the database file; `:memory:` gives a private in-memory database for tests. */
export function openDatabase(file: string): SqliteDatabase {
  // The data is the users': only the service's own account may read it (SQLite gives -wal/-shm the same mode).
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  if (file !== ':memory:') chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  // FULL: an acknowledged commit is on disk even if the machine loses power, not only the process.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
