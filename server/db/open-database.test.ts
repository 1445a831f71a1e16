import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase } from './open-database';

it('keeps the database readable by its owner only, in WAL mode', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'pipework-db-')), 'data');
  const db = openDatabase(join(dir, 'x.sqlite'));
  db.exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);');
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, 'x.sqlite')).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, 'x.sqlite-wal')).mode & 0o777).toBe(0o600);
  db.close();
});
