/**
 * The PostgreSQL property store: the same contract and rules as the SQLite one, on a `pg` pool, so several
 * server instances can share one database. Writes run in one transaction each (`postgres-property-writes.ts`),
 * wildcard listings are index range scans on the byte-ordered `key` (`postgres-listing.ts`). Created with a
 * `syncBridge`, it also offers `getSync`/`listSync`/`updateSync` (the `@property` PEL utility) through it.
 */
import type { Pool, PoolClient } from 'pg';
import {
  DEFAULT_HISTORY_BOUNDS,
  normalizePropertyKey,
  type DeleteMatchingOptions,
  type HistoryBounds,
  type KeyScope,
  type ChildrenPage,
  type ChildrenPageQuery,
  type InstancePage,
  type InstancePageQuery,
  type InstanceRow,
  type NewProperty,
  type Property,
  type PropertyChange,
  type PropertyPatch,
  type PropertyQuery,
  type PropertyStore,
  type SaveOptions,
  type SaveResult,
  type UpdateOptions,
  type UpdateResult,
  type WriteOptions,
} from '../../../shared/property';
import { PostgresSqlPort, driveOnClient } from '../../db/sql';
import { SqlPropertyMarks, TAGS_OF_LIVE_SQL, parseTags } from '../property-marks-sql';
import { instancePageSql } from '../instance-page-sql';
import { POSTGRES_INSTANCE_DIALECT } from '../instance-page-dialects';
import { toProperty, type PropertyRow } from '../property-rows';
import { PostgresAttachmentStore } from './postgres-attachment-store';
import { childrenOf, childrenPageOf, scanQuery } from './postgres-listing';
import { POSTGRES_PROPERTY_MIGRATIONS, migratePostgres } from './postgres-migrations';
import { propertyNotFound, versionConflict } from '../property-write-rules';
import { levelBase } from '../property-tree-rules';
import { PG_PROPERTY_COLUMNS, first, inTransaction, pgLive, rows } from './postgres-rows';
import { PostgresPropertyHistory } from './postgres-property-history';
import { runReadOnlyQuery } from './postgres-query-runner';
import { PostgresPropertyWrites } from './postgres-property-writes';
import type { PostgresSyncBridge } from './sync-bridge/postgres-sync-bridge';

export interface PostgresPropertyStoreOptions {
  /** Epoch milliseconds now (tests move time forward). */
  clock?: () => number;
  /** Close the pool with the store (default false: the pool belongs to the caller). */
  ownsPool?: boolean;
  /** Answers the synchronous calls through a worker thread (`sync-bridge/`); closed with the store. */
  syncBridge?: PostgresSyncBridge;
  /**
   * Runs inside each write's transaction, just before COMMIT, when the write changed something: what it
   * writes commits or rolls back with the change (the event outbox, `server/events/postgres-event-outbox.ts`).
   */
  beforeCommit?: BeforeCommitHook;
  /** How much history to keep per key (docs/history.md); default `DEFAULT_HISTORY_BOUNDS`. */
  history?: HistoryBounds;
  /** Called after a write that changed something committed (announcing its outbox events). */
  afterCommit?: () => void;
}

/** May answer a callback the store calls once the transaction ended (committed or rolled back). */
export type BeforeCommitHook = (
  client: PoolClient,
  changes: readonly PropertyChange[],
  options: WriteOptions,
) => Promise<void | ((committed: boolean) => void)>;

const changesOf = (result: { changes: PropertyChange[] }) => result.changes;

export class PostgresPropertyStore implements PropertyStore {
  readonly attachments: PostgresAttachmentStore;
  readonly history: PostgresPropertyHistory;
  readonly queryDialect = 'postgres' as const;
  private readonly clock: () => number;
  /** Present only with a sync bridge, so the `@property` utility can tell whether it is available. */
  readonly getSync?: (key: string) => Property | undefined;
  readonly listSync?: (query: PropertyQuery) => Property[];
  readonly updateSync?: (key: string, patch: PropertyPatch, options?: UpdateOptions) => UpdateResult;
  readonly marks: SqlPropertyMarks;

  private constructor(
    readonly pool: Pool,
    private readonly options: PostgresPropertyStoreOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.attachments = new PostgresAttachmentStore(pool, (key) => this.liveIdOf(key), this.clock);
    this.history = new PostgresPropertyHistory(pool, options.history ?? DEFAULT_HISTORY_BOUNDS, this.clock);
    // Trash and restore run as the store's own writes: their versions and events commit with them.
    this.marks = new SqlPropertyMarks(new PostgresSqlPort(pool), this.clock, (work, changes, actor) =>
      this.write({ actor }, (w) => driveOnClient(w.client, work()), changes),
    );
    const bridge = options.syncBridge;
    if (bridge) {
      this.getSync = (key) => bridge.getSync(key, this.clock());
      this.listSync = (query) => bridge.listSync(query, this.clock());
      this.updateSync = (key, patch, opts) => this.updateThroughBridge(bridge, key, patch, opts);
    }
  }

  /**
   * `updateSync` through the worker thread. A guard (a function) cannot cross to the worker: it runs here on the
   * property and tags read just before, and the update then holds to the version it saw (compare-and-swap).
   */
  private updateThroughBridge(
    bridge: PostgresSyncBridge,
    key: string,
    patch: PropertyPatch,
    options: UpdateOptions = {},
  ): UpdateResult {
    const { guard, ...plain } = options;
    if (!guard) return bridge.updateSync(key, patch, plain, this.clock());
    const current = bridge.getSync(key, this.clock());
    if (!current) throw propertyNotFound(key);
    if (plain.expectedVersion !== undefined && plain.expectedVersion !== current.version) {
      throw versionConflict(key, plain.expectedVersion, current.version);
    }
    const tags = bridge.rowSync<{ tags: string | null }>(TAGS_OF_LIVE_SQL, [key, this.clock()]);
    const guarded = guard(current, tags ? parseTags(tags.tags) : undefined) ?? patch;
    return bridge.updateSync(key, guarded, { ...plain, expectedVersion: current.version }, this.clock());
  }

  /** Opens the store on a pool, applying the property module's migrations (once, under a lock). */
  static async open(pool: Pool, options: PostgresPropertyStoreOptions = {}): Promise<PostgresPropertyStore> {
    await migratePostgres(pool, 'property', POSTGRES_PROPERTY_MIGRATIONS);
    await PostgresPropertyHistory.migrate(pool);
    const store = new PostgresPropertyStore(pool, options);
    await store.attachments.dropAbandonedUploads();
    return store;
  }

  private write<T>(
    options: WriteOptions,
    work: (writes: PostgresPropertyWrites) => Promise<T>,
    changes: (result: T) => readonly PropertyChange[],
  ): Promise<T> {
    const now = this.clock();
    const hook = this.options.beforeCommit;
    let changedAny = false;
    let ended: ((committed: boolean) => void) | undefined;
    const committed = inTransaction(this.pool, async (client) => {
      ended?.(false); // an earlier attempt rolled back (a retry after a unique violation)
      ended = undefined;
      const result = await work(new PostgresPropertyWrites(client, now));
      const changed = changes(result);
      // The versions commit or roll back with the change they record.
      await this.history.record(client, changed, options.actor, now);
      changedAny = changed.length > 0;
      if (hook && changedAny) ended = (await hook(client, changed, options)) ?? undefined;
      return result;
    });
    const after = this.options.afterCommit;
    return committed.then(
      (result) => {
        ended?.(true);
        if (changedAny) after?.();
        return result;
      },
      (error: unknown) => {
        ended?.(false);
        throw error;
      },
    );
  }

  private async liveIdOf(key: string): Promise<number> {
    const sql = `SELECT id::float8 AS id FROM property WHERE key = $1 AND ${pgLive(2)}`;
    const row = await first<{ id: number }>(this.pool, sql, [normalizePropertyKey(key), this.clock()]);
    if (!row) throw propertyNotFound(key);
    return row.id;
  }

  async get(key: string): Promise<Property | undefined> {
    const sql = `SELECT ${PG_PROPERTY_COLUMNS} FROM property WHERE key = $1 AND ${pgLive(2)}`;
    const row = await first<PropertyRow>(this.pool, sql, [normalizePropertyKey(key), this.clock()]);
    return row ? toProperty(row) : undefined;
  }

  async keyOfUuid(uuid: string): Promise<string | undefined> {
    const sql = `SELECT key FROM property WHERE uuid = $1 AND ${pgLive(2)}`;
    return (await first<{ key: string }>(this.pool, sql, [uuid, this.clock()]))?.key;
  }

  async list(query: PropertyQuery): Promise<Property[]> {
    return (await scanQuery<PropertyRow>(this.pool, query, this.clock(), PG_PROPERTY_COLUMNS)).map(
      toProperty,
    );
  }

  async keys(query: PropertyQuery): Promise<string[]> {
    return (await scanQuery<{ key: string }>(this.pool, query, this.clock(), 'key')).map((r) => r.key);
  }

  async instancePage(query: InstancePageQuery): Promise<InstancePage> {
    const q = instancePageSql(POSTGRES_INSTANCE_DIALECT, query, this.clock());
    const count = await first<{ total: number }>(
      this.pool,
      `SELECT count(*)::float8 AS total FROM property WHERE ${q.where}`,
      q.params,
    );
    const found = await rows<InstanceRow>(
      this.pool,
      `SELECT key, uuid, version, created::float8 AS created, updated::float8 AS updated, value ` +
        `FROM property WHERE ${q.where} ${q.page.sql}`,
      [...q.params, ...q.page.params],
    );
    return { total: count?.total ?? 0, rows: found };
  }

  async children(parent: string | null, scope: KeyScope = 'all'): Promise<string[]> {
    return childrenOf(this.pool, levelBase(parent), scope, this.clock());
  }

  async childrenPage({ parent, ...page }: ChildrenPageQuery): Promise<ChildrenPage> {
    return childrenPageOf(this.pool, levelBase(parent), page, this.clock());
  }

  async save(input: NewProperty, options: SaveOptions = {}): Promise<SaveResult> {
    const normalized = { ...input, key: normalizePropertyKey(input.key) };
    return this.write(options, (w) => w.save(normalized, options), changesOf);
  }

  async saveMany(inputs: readonly NewProperty[], options: SaveOptions = {}): Promise<SaveResult[]> {
    return this.write(
      options,
      async (w) => {
        const results: SaveResult[] = [];
        for (const input of inputs) {
          results.push(await w.save({ ...input, key: normalizePropertyKey(input.key) }, options));
        }
        return results;
      },
      (results) => results.flatMap((r) => r.changes),
    );
  }

  async update(key: string, patch: PropertyPatch, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.write(options, (w) => w.update(normalizePropertyKey(key), patch, options), changesOf);
  }

  async delete(key: string, options: WriteOptions = {}): Promise<PropertyChange | undefined> {
    return this.write(
      options,
      (w) => w.delete(normalizePropertyKey(key)),
      (change) => (change ? [change] : []),
    );
  }

  async deleteMatching(query: PropertyQuery, options: DeleteMatchingOptions = {}): Promise<PropertyChange[]> {
    return this.write(
      options,
      (w) => w.deleteMatching(query, options),
      (changes) => changes,
    );
  }

  async copy(from: string, to: string, options: WriteOptions = {}): Promise<UpdateResult> {
    return this.write(
      options,
      (w) => w.copy(normalizePropertyKey(from), normalizePropertyKey(to), options),
      changesOf,
    );
  }

  async move(from: string, to: string, options: WriteOptions = {}): Promise<UpdateResult> {
    return this.write(
      options,
      (w) => w.move(normalizePropertyKey(from), normalizePropertyKey(to), options),
      changesOf,
    );
  }

  async deleteExpired(limit = 500): Promise<PropertyChange[]> {
    return this.write(
      {},
      (w) => w.deleteExpired(limit),
      (changes) => changes,
    );
  }

  async authorOf(key: string): Promise<string | null | undefined> {
    const sql = `SELECT author FROM property WHERE key = $1 AND ${pgLive(2)}`;
    const row = await first<{ author: string | null }>(this.pool, sql, [
      normalizePropertyKey(key),
      this.clock(),
    ]);
    return row?.author;
  }

  /** In a READ ONLY transaction with a statement timeout, so nothing it runs can write or run on. */
  runQuery(sql: string, params: unknown[], limits: { maxRows: number; timeoutMillis: number }) {
    return runReadOnlyQuery(this.pool, sql, params, limits);
  }

  async close(): Promise<void> {
    await this.options.syncBridge?.close();
    if (this.options.ownsPool) await this.pool.end();
  }
}
