/**
 * The history on PostgreSQL: the same rows and rules as SQLite (`../sqlite/sqlite-property-history.ts`), `record`
 * running on the write's own transaction client so a change and its version commit together.
 */
import type { Pool, PoolClient } from 'pg';
import {
  normalizePropertyKey,
  type HistoryBounds,
  type HistoryListOptions,
  type PropertyChange,
  type PropertyHistoryReader,
  type PropertyVersion,
  type PropertyVersionSummary,
} from '../../../shared/property';
import { POSTGRES_HISTORY_MIGRATIONS } from '../history-migrations';
import { VERSION_COLUMNS, historyOn, oldestKept, versionRecords, versionRowValues } from '../history-records';
import { withDefaultValue } from '../property-rows';
import { migratePostgres } from './postgres-migrations';
import { first, inTransaction, rows } from './postgres-rows';

const SUMMARY = `h.id::float8 AS id, h.key, h.uuid, h.kind, h.version, h.type, h.ttl AS "timeToLive",
  h.default_value AS "defaultValue", h.actor, h.at::float8 AS at, h.other_key AS "otherKey"`;

/** One version recorded, its key pruned and orphaned values dropped (see `record`); `$1`..`$14`. */
const RECORD_VERSION_SQL = `
  WITH stored_value AS (
    INSERT INTO property_history_value (hash, value) SELECT $5::text, $12::text WHERE $5::text IS NOT NULL
    ON CONFLICT (hash) DO NOTHING),
  added AS (
    INSERT INTO property_history (${VERSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)),
  pruned AS (
    DELETE FROM property_history WHERE key = $1 AND (at < $13 OR id <= (
      SELECT id FROM property_history WHERE key = $1 ORDER BY id DESC LIMIT 1 OFFSET $14))
    RETURNING id, value_hash)
  DELETE FROM property_history_value v
  WHERE v.hash IN (SELECT value_hash FROM pruned) AND v.hash IS DISTINCT FROM $5::text
    AND NOT EXISTS (SELECT 1 FROM property_history h
                    WHERE h.value_hash = v.hash AND h.id NOT IN (SELECT id FROM pruned))`;

export class PostgresPropertyHistory implements PropertyHistoryReader {
  constructor(
    private readonly pool: Pool,
    private readonly bounds: HistoryBounds,
    private readonly clock: () => number,
  ) {}

  static async migrate(pool: Pool): Promise<void> {
    await migratePostgres(pool, 'property-history', POSTGRES_HISTORY_MIGRATIONS);
  }

  /**
   * Records the changes of a write on its transaction's client: one statement per version, which stores its
   * value (once per hash), adds the version, prunes its key to the bounds and drops the values no version
   * refers to any more. Within one statement the new row is not yet visible, so the prune keeps
   * `maxVersions - 1` of the earlier ones, and the new row's value is never dropped.
   */
  async record(
    client: PoolClient,
    changes: readonly PropertyChange[],
    actor: string | null | undefined,
    now: number,
  ): Promise<void> {
    if (!historyOn(this.bounds) || changes.length === 0) return;
    const oldest = oldestKept(this.bounds, now);
    for (const r of versionRecords(changes, actor, now)) {
      await client.query(RECORD_VERSION_SQL, [
        ...versionRowValues(r),
        r.value,
        oldest,
        this.bounds.maxVersions - 1,
      ]);
    }
  }

  async list(rawKey: string, options: HistoryListOptions = {}): Promise<PropertyVersionSummary[]> {
    const found = await rows<PropertyVersionSummary>(
      this.pool,
      `SELECT ${SUMMARY}, length(v.value) AS "valueLength" FROM property_history h
       LEFT JOIN property_history_value v ON v.hash = h.value_hash
       WHERE h.key = $1 AND h.id < $2 ORDER BY h.id DESC LIMIT $3`,
      [normalizePropertyKey(rawKey), options.before ?? Number.MAX_SAFE_INTEGER, options.limit ?? 100],
    );
    return found.map(withDefaultValue);
  }

  async get(rawKey: string, id: number): Promise<PropertyVersion | undefined> {
    const row = await first<PropertyVersion>(
      this.pool,
      `SELECT ${SUMMARY}, v.value FROM property_history h
       LEFT JOIN property_history_value v ON v.hash = h.value_hash WHERE h.key = $1 AND h.id = $2`,
      [normalizePropertyKey(rawKey), id],
    );
    return row ? withDefaultValue(row) : undefined;
  }

  async prune(): Promise<number> {
    if (this.bounds.maxDays === 0) return 0;
    const oldest = oldestKept(this.bounds, this.clock());
    return inTransaction(this.pool, async (client) => {
      const pruned = await rows<{ value_hash: string | null }>(
        client,
        'DELETE FROM property_history WHERE at < $1 RETURNING value_hash',
        [oldest],
      );
      await dropValues(client, pruned);
      return pruned.length;
    });
  }
}

/** Deletes the values no version refers to any more among those of the pruned rows. */
async function dropValues(
  client: PoolClient,
  pruned: readonly { value_hash: string | null }[],
): Promise<void> {
  const hashes = [...new Set(pruned.map((r) => r.value_hash).filter((h): h is string => h !== null))];
  if (hashes.length === 0) return;
  await client.query(
    `DELETE FROM property_history_value v WHERE v.hash = ANY($1::text[])
     AND NOT EXISTS (SELECT 1 FROM property_history h WHERE h.value_hash = v.hash)`,
    [hashes],
  );
}
