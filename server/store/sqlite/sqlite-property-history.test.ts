// History specifics on SQLite: values kept once by reference, freed with the last version, and history off.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db';
import { SqlitePropertyStore } from './sqlite-property-store';

const valuesStored = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare('SELECT count(*) AS n FROM property_history_value').get() as { n: number }).n;

describe('SQLite property history', () => {
  it('stores a value once however many versions refer to it, and frees it with the last one', async () => {
    const db = openDatabase(':memory:');
    const store = new SqlitePropertyStore(db, { history: { maxVersions: 3, maxDays: 0 } });
    const big = 'x'.repeat(100_000);
    await store.save({ key: 'global/big', value: big });
    await store.update('global/big', { type: 'text/markdown' });
    await store.update('global/big', { timeToLive: 60 });
    expect(await store.history.list('global/big')).toHaveLength(3);
    expect(valuesStored(db)).toBe(1);
    await store.update('global/big', { value: 'small' });
    await store.update('global/big', { value: 'smaller' });
    await store.update('global/big', { value: 'smallest' });
    expect(await store.history.list('global/big')).toHaveLength(3);
    expect(valuesStored(db)).toBe(3);
    db.close();
  });

  it('records nothing with history off', async () => {
    const db = openDatabase(':memory:');
    const store = new SqlitePropertyStore(db, { history: { maxVersions: 0, maxDays: 0 } });
    await store.save({ key: 'global/a', value: '1' });
    await store.update('global/a', { value: '2' });
    expect(await store.history.list('global/a')).toEqual([]);
    db.close();
  });
});
