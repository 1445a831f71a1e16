/**
 * The history on SQLite: `record` runs inside each write's transaction (the store calls it before the
 * transaction ends), so a change and its version commit or roll back together. Pruning is per key on each
 * write (an index range on `(key, id)`) and, for keys no longer written, by age in `prune`.
 */
import { migrate, type SqliteDatabase } from '../../db';
import {
  normalizePropertyKey,
  type HistoryBounds,
  type HistoryListOptions,
  type PropertyChange,
  type PropertyHistoryReader,
  type PropertyVersion,
  type PropertyVersionSummary,
} from '../../../shared/property';
import { HISTORY_MIGRATIONS } from '../history-migrations';
import { VERSION_COLUMNS, historyOn, oldestKept, versionRecords, versionRowValues } from '../history-records';
import { withDefaultValue } from '../property-rows';

const SUMMARY = `h.id, h.key, h.uuid, h.kind, h.version, h.type, h.ttl AS timeToLive,
  h.default_value AS defaultValue, h.actor, h.at, h.other_key AS otherKey`;

interface SummaryRow extends Omit<PropertyVersionSummary, 'defaultValue'> {
  defaultValue: string | null;
}

export class SqlitePropertyHistory implements PropertyHistoryReader {
  private readonly stmt;
  private readonly pruneAll;

  constructor(
    db: SqliteDatabase,
    private readonly bounds: HistoryBounds,
    private readonly clock: () => number,
  ) {
    migrate(db, 'property-history', HISTORY_MIGRATIONS);
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO property_history (${VERSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      value: db.prepare('INSERT OR IGNORE INTO property_history_value (hash, value) VALUES (?, ?)'),
      pruneKey: db
        .prepare(
          `DELETE FROM property_history WHERE key = ? AND (at < ? OR id <= (
             SELECT id FROM property_history WHERE key = ? ORDER BY id DESC LIMIT 1 OFFSET ?))
           RETURNING value_hash`,
        )
        .pluck(),
      pruneOld: db.prepare('DELETE FROM property_history WHERE at < ? RETURNING value_hash').pluck(),
      dropValue: db.prepare(
        `DELETE FROM property_history_value WHERE hash = ?
         AND NOT EXISTS (SELECT 1 FROM property_history WHERE value_hash = ?)`,
      ),
      list: db.prepare<unknown[], SummaryRow>(
        `SELECT ${SUMMARY}, length(v.value) AS valueLength FROM property_history h
         LEFT JOIN property_history_value v ON v.hash = h.value_hash
         WHERE h.key = ? AND h.id < ? ORDER BY h.id DESC LIMIT ?`,
      ),
      get: db.prepare<unknown[], SummaryRow & { value: string | null }>(
        `SELECT ${SUMMARY}, v.value FROM property_history h
         LEFT JOIN property_history_value v ON v.hash = h.value_hash WHERE h.key = ? AND h.id = ?`,
      ),
    };
    this.pruneAll = db.transaction((oldest: number) => {
      const hashes = this.stmt.pruneOld.all(oldest) as (string | null)[];
      this.dropValues(hashes);
      return hashes.length;
    });
  }

  /** Records the changes of a write; call inside its transaction. */
  record(changes: readonly PropertyChange[], actor: string | null | undefined): void {
    if (!historyOn(this.bounds) || changes.length === 0) return;
    const now = this.clock();
    const keys = new Set<string>();
    for (const r of versionRecords(changes, actor, now)) {
      if (r.valueHash !== null) this.stmt.value.run(r.valueHash, r.value);
      this.stmt.insert.run(...versionRowValues(r));
      keys.add(r.key);
    }
    const oldest = oldestKept(this.bounds, now);
    for (const key of keys) {
      this.dropValues(this.stmt.pruneKey.all(key, oldest, key, this.bounds.maxVersions) as (string | null)[]);
    }
  }

  private dropValues(hashes: readonly (string | null)[]): void {
    for (const hash of new Set(hashes)) if (hash !== null) this.stmt.dropValue.run(hash, hash);
  }

  async list(rawKey: string, options: HistoryListOptions = {}): Promise<PropertyVersionSummary[]> {
    const key = normalizePropertyKey(rawKey);
    const rows = this.stmt.list.all(key, options.before ?? Number.MAX_SAFE_INTEGER, options.limit ?? 100);
    return rows.map((row) => withDefaultValue(row) as PropertyVersionSummary);
  }

  async get(rawKey: string, id: number): Promise<PropertyVersion | undefined> {
    const row = this.stmt.get.get(normalizePropertyKey(rawKey), id);
    return row ? (withDefaultValue(row) as PropertyVersion) : undefined;
  }

  async prune(): Promise<number> {
    if (this.bounds.maxDays === 0) return 0;
    return this.pruneAll.immediate(oldestKept(this.bounds, this.clock()));
  }
}
