import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../db';
import { collect } from '../property-store-contract-support';
import { PROPERTY_MIGRATIONS } from './sqlite-migrations';
import { runPropertyStoreContract } from '../property-store.contract';
import { SqlitePropertyStore } from './sqlite-property-store';

runPropertyStoreContract('SQLite (in memory)', async (clock) => {
  const db = openDatabase(':memory:');
  return { store: new SqlitePropertyStore(db, { clock }), dispose: async () => void db.close() };
});

describe('SqlitePropertyStore specifics', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipework-store-'));
    dirs.push(dir);
    return join(dir, 'db.sqlite');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers wildcard listings with an index range scan, not a table scan', () => {
    const db = openDatabase(':memory:');
    new SqlitePropertyStore(db);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT key FROM property WHERE key >= ? AND key < ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key`,
      )
      .all('global/a/', 'global/a0', 0) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/SEARCH property USING INDEX .*key>\? AND key<\?/);
    expect(plan.map((p) => p.detail).join(' ')).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('keeps data across reopen, in WAL mode, and migrates once', async () => {
    const file = tempFile();
    let db = openDatabase(file);
    let store = new SqlitePropertyStore(db);
    await store.save({ key: 'global/a', value: 'x' });
    db.close();
    db = openDatabase(file);
    store = new SqlitePropertyStore(db);
    expect((await store.get('global/a'))!.value).toBe('x');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT count(*) AS n FROM schema_migrations WHERE module = 'property'").get()).toEqual(
      { n: PROPERTY_MIGRATIONS.length },
    );
    db.close();
  });

  it('migrates a database of the first version without losing attachments', async () => {
    const file = tempFile();
    let db = openDatabase(file);
    migrate(db, 'property', PROPERTY_MIGRATIONS.slice(0, 1));
    db.prepare(
      "INSERT INTO property (uuid, key, type, created) VALUES ('u1', 'global/old', 'text/plain', 1)",
    ).run();
    const id = db.prepare("SELECT id FROM property WHERE key = 'global/old'").pluck().get();
    db.prepare(
      "INSERT INTO property_attachment (property_id, uuid, name, content_type, length, chunks, created) VALUES (?, 'a1', 'f', 'x/y', 1, 1, 1)",
    ).run(id);
    const attachment = db.prepare("SELECT id FROM property_attachment WHERE uuid = 'a1'").pluck().get();
    db.prepare("INSERT INTO property_attachment_chunk (attachment_id, idx, data) VALUES (?, 0, x'2a')").run(
      attachment,
    );
    db.close();
    db = openDatabase(file);
    const store = new SqlitePropertyStore(db);
    expect(await collect(store.attachments.read('global/old', 'f'))).toEqual([42]);
    db.close();
  });

  it('drops uploads that never completed when it opens', async () => {
    const file = tempFile();
    let db = openDatabase(file);
    let store = new SqlitePropertyStore(db);
    await store.save({ key: 'global/a', value: 'x' });
    const stuck = (async function* () {
      yield new Uint8Array(10);
      await new Promise(() => {}); // never ends, like a client that went away mid-upload
    })();
    void store.attachments.write('global/a', 'big', stuck);
    await new Promise((r) => setTimeout(r, 10));
    expect(
      (db.prepare('SELECT count(*) AS n FROM property_attachment WHERE pending = 1').get() as { n: number })
        .n,
    ).toBe(1);
    db.close();
    db = openDatabase(file);
    store = new SqlitePropertyStore(db);
    expect((db.prepare('SELECT count(*) AS n FROM property_attachment').get() as { n: number }).n).toBe(0);
    db.close();
  });

  it('reads synchronously for the PEL utility', async () => {
    const db = openDatabase(':memory:');
    const store = new SqlitePropertyStore(db);
    await store.save({ key: 'global/a', value: 'x' });
    expect(store.getSync('global/a')!.value).toBe('x');
    expect(store.listSync({ pattern: 'global/*' }).map((p) => p.key)).toEqual(['global/a']);
    db.close();
  });
});
