/**
 * The cache shared by every instance on one PostgreSQL database, with the in-memory cache's rules: a time to
 * live, PAYLOAD_TOO_LARGE for a value alone over the byte bound, and bounds in entries and bytes over all
 * scopes kept by evicting the least recently used entries. Every write that changes what the cache holds runs
 * in one transaction that first locks the `cache_tally` row, so puts from several instances at once keep them.
 */
import type { Pool, PoolClient } from 'pg';
import { inPostgresTransaction } from '../db/postgres-transaction';
import { migratePostgres } from '../store/postgres/postgres-migrations';
import type { CacheConfig } from './cache-config';
import { sizeWithin, type CachedValue, type CacheStore } from './cache-store';
import { POSTGRES_CACHE_MIGRATIONS } from './postgres-cache-migrations';

export interface PostgresCacheStoreOptions {
  /** Epoch milliseconds now (tests move time forward). */
  clock?: () => number;
}

interface EntryRow {
  kind: 'json' | 'bytes';
  text: string | null;
  data: Buffer | null;
  mime_type: string | null;
  name: string | null;
}

interface Tally {
  entries: number;
  bytes: number;
}

/** How many of the least recently used entries each eviction step reads. */
const EVICTION_PAGE = 100;

export class PostgresCacheStore implements CacheStore {
  private readonly now: () => number;

  private constructor(
    private readonly pool: Pool,
    private readonly bounds: CacheConfig,
    options: PostgresCacheStoreOptions,
  ) {
    this.now = options.clock ?? Date.now;
  }

  /** Opens the cache on the installation's pool, applying the `cache` module's migrations (once, under a lock). */
  static async open(
    pool: Pool,
    bounds: CacheConfig,
    options: PostgresCacheStoreOptions = {},
  ): Promise<PostgresCacheStore> {
    await migratePostgres(pool, 'cache', POSTGRES_CACHE_MIGRATIONS);
    return new PostgresCacheStore(pool, bounds, options);
  }

  /** Entries and bytes held now, over all scopes (expired entries count until they are removed). */
  async stats(): Promise<{ entries: number; bytes: number }> {
    const { rows } = await this.pool.query<Tally>(
      'SELECT entries::float8 AS entries, bytes::float8 AS bytes FROM cache_tally WHERE id = 1',
    );
    return { entries: rows[0]!.entries, bytes: rows[0]!.bytes };
  }

  async put(scope: string, key: string, value: CachedValue, ttlMillis: number): Promise<void> {
    const size = sizeWithin(value, this.bounds.maxBytes);
    const bytes = value.kind === 'bytes' ? value : undefined;
    await this.changing(async (client, tally) => {
      await this.deleteRows(client, tally, 'scope = $1 AND key = $2', [scope, key]);
      await client.query(
        `INSERT INTO cache_entry (scope, key, kind, text, data, mime_type, name, size, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          scope,
          key,
          value.kind,
          value.kind === 'json' ? value.text : null,
          bytes ? Buffer.from(bytes.data.buffer, bytes.data.byteOffset, bytes.data.byteLength) : null,
          bytes?.mimeType ?? null,
          bytes?.name ?? null,
          size,
          this.now() + ttlMillis,
        ],
      );
      tally.entries += 1;
      tally.bytes += size;
      await this.evict(client, tally);
    });
  }

  async get(scope: string, key: string): Promise<CachedValue | undefined> {
    // A read makes the entry the most recently used; it leaves the tally alone, so it takes no lock.
    const { rows } = await this.pool.query<EntryRow>(
      `UPDATE cache_entry SET last_used = nextval('cache_recency')
       WHERE scope = $1 AND key = $2 AND expires_at > $3
       RETURNING kind, text, data, mime_type, name`,
      [scope, key, this.now()],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.kind === 'json') return { kind: 'json', text: row.text ?? '' };
    const data = new Uint8Array(row.data!.buffer, row.data!.byteOffset, row.data!.byteLength);
    return {
      kind: 'bytes',
      data,
      mimeType: row.mime_type ?? 'application/octet-stream',
      ...(row.name === null ? {} : { name: row.name }),
    };
  }

  async has(scope: string, key: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM cache_entry WHERE scope = $1 AND key = $2 AND expires_at > $3',
      [scope, key, this.now()],
    );
    return (rowCount ?? 0) > 0;
  }

  async remove(scope: string, key: string): Promise<boolean> {
    return this.changing(
      async (client, tally) =>
        (await this.deleteRows(client, tally, 'scope = $1 AND key = $2', [scope, key])) > 0,
    );
  }

  async clear(scope: string, options: { all: boolean }): Promise<number> {
    const now = this.now();
    if (!options.all) {
      return this.changing((client, tally) =>
        this.deleteRows(client, tally, 'scope = $1 AND expires_at <= $2', [scope, now]),
      );
    }
    // Expired entries go too, but count as already gone (the in-memory cache drops them when it meets them).
    return this.changing(async (client, tally) => {
      const live = await client.query('SELECT 1 FROM cache_entry WHERE scope = $1 AND expires_at > $2', [
        scope,
        now,
      ]);
      await this.deleteRows(client, tally, 'scope = $1', [scope]);
      return live.rowCount ?? 0;
    });
  }

  /**
   * Runs `work` in a transaction holding the tally row's lock; the tally it changes is written back at the
   * end. Writers on every instance queue on that row, so each sees what the others committed.
   */
  private async changing<T>(work: (client: PoolClient, tally: Tally) => Promise<T>): Promise<T> {
    return inPostgresTransaction(this.pool, async (client) => {
      const { rows } = await client.query<Tally>(
        'SELECT entries::float8 AS entries, bytes::float8 AS bytes FROM cache_tally WHERE id = 1 FOR UPDATE',
      );
      const tally = { ...rows[0]! };
      const result = await work(client, tally);
      await client.query('UPDATE cache_tally SET entries = $1, bytes = $2 WHERE id = 1', [
        tally.entries,
        tally.bytes,
      ]);
      return result;
    });
  }

  /** Deletes the matching entries, taking them off the tally; how many went. */
  private async deleteRows(
    client: PoolClient,
    tally: Tally,
    where: string,
    params: unknown[],
  ): Promise<number> {
    const { rows } = await client.query<{ size: number }>(
      `DELETE FROM cache_entry WHERE ${where} RETURNING size::float8 AS size`,
      params,
    );
    tally.entries -= rows.length;
    tally.bytes -= rows.reduce((sum, row) => sum + row.size, 0);
    return rows.length;
  }

  /** Removes least recently used entries until both bounds hold (usually one, read a page at a time). */
  private async evict(client: PoolClient, tally: Tally): Promise<void> {
    while (tally.entries > this.bounds.maxEntries || tally.bytes > this.bounds.maxBytes) {
      const { rows } = await client.query<{ scope: string; key: string; size: number }>(
        'SELECT scope, key, size::float8 AS size FROM cache_entry ORDER BY last_used LIMIT $1',
        [EVICTION_PAGE],
      );
      const victims: { scope: string; key: string }[] = [];
      let { entries, bytes } = tally;
      for (const row of rows) {
        if (entries <= this.bounds.maxEntries && bytes <= this.bounds.maxBytes) break;
        victims.push(row);
        entries -= 1;
        bytes -= row.size;
      }
      if (victims.length === 0) return; // the tally says over, the table holds nothing more to evict
      await this.deleteRows(client, tally, '(scope, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))', [
        victims.map((v) => v.scope),
        victims.map((v) => v.key),
      ]);
    }
  }
}
