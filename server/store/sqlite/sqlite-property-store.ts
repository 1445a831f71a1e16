/**
 * The SQLite property store: prepared statements, `BEGIN IMMEDIATE` transactions for every write, index
 * range scans for wildcard listings, and synchronous reads for the `@property` PEL utility.
 */
import { randomUUID } from 'node:crypto';
import { migrate, type SqliteDatabase } from '../../db';
import { SqliteSqlPort } from '../../db/sql';
import {
  DEFAULT_HISTORY_BOUNDS,
  compileKeyPattern,
  normalizePropertyKey,
  scanRanges,
  type KeyPattern,
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
  type DeleteMatchingOptions,
  type HistoryBounds,
  type SaveOptions,
  type SaveResult,
  type SyncPropertyReader,
  type SyncPropertyWriter,
  type UpdateOptions,
  type UpdateResult,
  type WriteOptions,
} from '../../../shared/property';
import { instancePageSql } from '../instance-page-sql';
import { SQLITE_INSTANCE_DIALECT } from '../instance-page-dialects';
import { PROPERTY_MIGRATIONS } from './sqlite-migrations';
import { SqlPropertyMarks, parseTags } from '../property-marks-sql';
import { SqliteAttachmentStore } from './sqlite-attachment-store';
import { childrenOf } from './sqlite-children';
import { childrenPageOf } from './sqlite-children-page';
import { levelBase } from '../property-tree-rules';
import { SqlitePropertyHistory } from './sqlite-property-history';
import { SqliteQueryRunner } from './sqlite-query-runner';
import {
  createdColumns,
  hasExpired,
  ontoItself,
  patchedColumns,
  propertyExists,
  propertyNotFound,
  savePatch,
  versionConflict,
} from '../property-write-rules';
import { stagedPropertyMissing, stagingKeysOf } from '../attachment-adoption';
import { publicCopy, toProperty, type PropertyRow, type StoredRow } from '../property-rows';
import { LIVE, PROPERTY_COLUMNS, STORED_COLUMNS } from './sqlite-rows';

export interface SqlitePropertyStoreOptions {
  /** Epoch milliseconds now (tests move time forward). */
  clock?: () => number;
  /** How much history to keep per key (docs/history.md); default `DEFAULT_HISTORY_BOUNDS`. */
  history?: HistoryBounds;
}

/** A write's result with its committed changes. */
type Changed = { changes: PropertyChange[] };

/** The test every listed key passes: the pattern, then the query's own filter. */
function acceptor(pattern: KeyPattern, filter?: (key: string) => boolean): (key: string) => boolean {
  return filter ? (key) => pattern.matches(key) && filter(key) : (key) => pattern.matches(key);
}

export class SqlitePropertyStore implements PropertyStore, SyncPropertyReader, SyncPropertyWriter {
  readonly attachments: SqliteAttachmentStore;
  readonly history: SqlitePropertyHistory;
  readonly marks: SqlPropertyMarks;
  private readonly marksPort: SqliteSqlPort;
  readonly queryDialect = 'sqlite' as const;
  private readonly queries: SqliteQueryRunner;
  private readonly clock: () => number;
  private readonly stmt;
  private readonly tx;

  /** Opens the store on a database, applying the property module's migrations. */
  constructor(
    readonly db: SqliteDatabase,
    options: SqlitePropertyStoreOptions = {},
  ) {
    migrate(db, 'property', PROPERTY_MIGRATIONS);
    this.clock = options.clock ?? Date.now;
    const prepare = <T>(sql: string) => db.prepare<unknown[], T>(sql);
    this.stmt = {
      live: prepare<PropertyRow>(`SELECT ${PROPERTY_COLUMNS} FROM property WHERE key = ? AND ${LIVE}`),
      stored: prepare<StoredRow>(`SELECT ${STORED_COLUMNS} FROM property WHERE key = ?`),
      storedById: prepare<StoredRow>(`SELECT ${STORED_COLUMNS} FROM property WHERE id = ?`),
      rangeTo: prepare<PropertyRow>(
        `SELECT ${PROPERTY_COLUMNS} FROM property WHERE key >= ? AND key < ? AND ${LIVE} ORDER BY key`,
      ),
      rangeOpen: prepare<PropertyRow>(
        `SELECT ${PROPERTY_COLUMNS} FROM property WHERE key >= ? AND ${LIVE} ORDER BY key`,
      ),
      keysTo: prepare<string>(
        `SELECT key FROM property WHERE key >= ? AND key < ? AND ${LIVE} ORDER BY key`,
      ).pluck(),
      keysOpen: prepare<string>(`SELECT key FROM property WHERE key >= ? AND ${LIVE} ORDER BY key`).pluck(),
      liveKey: prepare<string>(`SELECT key FROM property WHERE key = ? AND ${LIVE}`).pluck(),
      keyOfUuid: prepare<string>(`SELECT key FROM property WHERE uuid = ? AND ${LIVE}`).pluck(),
      insert: db.prepare(
        `INSERT INTO property (uuid, key, value, type, created, updated, ttl, expires_at, default_value, version, author)
         VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, 1, ?)`,
      ),
      update: db.prepare(
        `UPDATE property SET value = ?, type = ?, updated = ?, ttl = ?, expires_at = ?, default_value = ?,
         version = version + 1, author = ? WHERE id = ?`,
      ),
      // A move is a write by the mover: they become the author (see `authorOf`), never inheriting the earlier one.
      rename: db.prepare(
        'UPDATE property SET key = ?, updated = ?, version = version + 1, author = ? WHERE id = ?',
      ),
      delete: db.prepare('DELETE FROM property WHERE id = ?'),
      expired: prepare<StoredRow>(
        // A binned property (expires_at below 0, see property-marks-sql.ts) is the bin's to delete.
        `SELECT ${STORED_COLUMNS} FROM property WHERE expires_at >= 0 AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
      ),
      author: prepare<string | null>(`SELECT author FROM property WHERE key = ? AND ${LIVE}`).pluck(),
      idOfLive: prepare<number>(`SELECT id FROM property WHERE key = ? AND ${LIVE}`).pluck(),
    };
    this.queries = new SqliteQueryRunner(db);
    this.history = new SqlitePropertyHistory(db, options.history ?? DEFAULT_HISTORY_BOUNDS, this.clock);
    // Every write records its changes in the history inside its own transaction.
    const recorded = <T extends Changed>(result: T, actor: string | null | undefined): T => {
      this.history.record(result.changes, actor);
      return result;
    };
    this.tx = {
      save: db.transaction((input: NewProperty, options: SaveOptions) =>
        recorded(this.saveNow(input, options), options.actor),
      ),
      saveMany: db.transaction((inputs: readonly NewProperty[], options: SaveOptions) => {
        const results = inputs.map((input) => this.saveNow(input, options));
        this.history.record(
          results.flatMap((r) => r.changes),
          options.actor,
        );
        return results;
      }),
      update: db.transaction((key: string, patch: PropertyPatch, options: UpdateOptions) =>
        recorded(this.updateNow(key, patch, options), options.actor),
      ),
      delete: db.transaction((key: string, options: WriteOptions) => {
        const change = this.deleteNow(key);
        if (change) this.history.record([change], options.actor);
        return change;
      }),
      deleteMatching: db.transaction((query: PropertyQuery, options: DeleteMatchingOptions) => {
        const changes = this.deleteMatchingNow(query, options);
        this.history.record(changes, options.actor);
        return changes;
      }),
      copy: db.transaction((from: string, to: string, options: WriteOptions) =>
        recorded(this.copyNow(from, to, options), options.actor),
      ),
      move: db.transaction((from: string, to: string, options: WriteOptions) =>
        recorded(this.moveNow(from, to, options), options.actor),
      ),
      deleteExpired: db.transaction((limit: number) => {
        const changes = this.deleteExpiredNow(limit);
        this.history.record(changes, null);
        return changes;
      }),
    };
    this.attachments = new SqliteAttachmentStore(db, (key) => this.liveIdOf(key), this.clock);
    this.marksPort = new SqliteSqlPort(db);
    // Trash and restore record their versions in their own transaction, as every other write does.
    const history = this.history;
    const marksPort = this.marksPort;
    this.marks = new SqlPropertyMarks(this.marksPort, this.clock, async (work, changes, actor) =>
      marksPort.transactionSync(function* () {
        const result = yield* work();
        history.record(changes(result), actor);
        return result;
      }),
    );
  }

  // ---- synchronous reads (also behind the async interface) ----

  getSync(key: string): Property | undefined {
    const row = this.stmt.live.get(normalizePropertyKey(key), this.clock());
    return row ? toProperty(row) : undefined;
  }

  listSync(query: PropertyQuery): Property[] {
    const pattern = typeof query.pattern === 'string' ? compileKeyPattern(query.pattern) : query.pattern;
    const accepts = acceptor(pattern, query.filter);
    const limit = query.limit ?? Infinity;
    const now = this.clock();
    const out: Property[] = [];
    for (const range of scanRanges(pattern, query.scope ?? 'all')) {
      if (out.length >= limit) break;
      if ('exact' in range) {
        const row = this.stmt.live.get(range.exact, now);
        if (row && accepts(row.key)) out.push(toProperty(row));
        continue;
      }
      // With a limit rows are read one at a time, so it stops the scan; without one `all` is faster.
      const read = limit === Infinity ? 'all' : 'iterate';
      const rows =
        range.to === undefined
          ? this.stmt.rangeOpen[read](range.from, now)
          : this.stmt.rangeTo[read](range.from, range.to, now);
      for (const row of rows) {
        if (accepts(row.key)) out.push(toProperty(row));
        if (out.length >= limit) break; // for-of closes the iterator
      }
    }
    return out;
  }

  keysSync(query: PropertyQuery): string[] {
    const pattern = typeof query.pattern === 'string' ? compileKeyPattern(query.pattern) : query.pattern;
    const accepts = acceptor(pattern, query.filter);
    const now = this.clock();
    const out: string[] = [];
    for (const range of scanRanges(pattern, query.scope ?? 'all')) {
      const keys =
        'exact' in range
          ? this.stmt.liveKey.all(range.exact, now)
          : range.to === undefined
            ? this.stmt.keysOpen.all(range.from, now)
            : this.stmt.keysTo.all(range.from, range.to, now);
      for (const key of keys) if (accepts(key)) out.push(key);
    }
    return query.limit === undefined ? out : out.slice(0, query.limit);
  }

  childrenSync(parent: string | null, scope: KeyScope = 'all'): string[] {
    return childrenOf(this.db, levelBase(parent), scope, this.clock());
  }

  // ---- the synchronous write (also behind the async interface) ----

  updateSync(key: string, patch: PropertyPatch, options: UpdateOptions = {}): UpdateResult {
    return this.tx.update.immediate(normalizePropertyKey(key), patch, options);
  }

  // ---- the asynchronous contract ----

  async get(key: string): Promise<Property | undefined> {
    return this.getSync(key);
  }
  async list(query: PropertyQuery): Promise<Property[]> {
    return this.listSync(query);
  }
  async keyOfUuid(uuid: string): Promise<string | undefined> {
    return this.stmt.keyOfUuid.get(uuid, this.clock()) as string | undefined;
  }
  async keys(query: PropertyQuery): Promise<string[]> {
    return this.keysSync(query);
  }
  async children(parent: string | null, scope: KeyScope = 'all'): Promise<string[]> {
    return this.childrenSync(parent, scope);
  }
  async childrenPage({ parent, after, limit, accept }: ChildrenPageQuery): Promise<ChildrenPage> {
    return childrenPageOf(this.db, levelBase(parent), after, limit, accept ?? (() => true), this.clock());
  }
  async instancePage(query: InstancePageQuery): Promise<InstancePage> {
    const q = instancePageSql(SQLITE_INSTANCE_DIALECT, query, this.clock());
    // Named parameters (@p1, @p2, ...): a path parameter appears more than once.
    const named = (values: unknown[]) => Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]));
    const total = this.db
      .prepare(`SELECT count(*) FROM property WHERE ${q.where}`)
      .pluck()
      .get(named(q.params));
    const rows = this.db
      .prepare(
        `SELECT key, uuid, version, created, updated, value FROM property WHERE ${q.where} ` +
          `${q.page.sql}`,
      )
      .all(named([...q.params, ...q.page.params])) as InstanceRow[];
    return { total: total as number, rows };
  }
  async save(input: NewProperty, options: SaveOptions = {}): Promise<SaveResult> {
    return this.tx.save.immediate(input, options);
  }
  async saveMany(inputs: readonly NewProperty[], options: SaveOptions = {}): Promise<SaveResult[]> {
    return this.tx.saveMany.immediate(inputs, options);
  }
  async update(key: string, patch: PropertyPatch, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.updateSync(key, patch, options);
  }
  async delete(key: string, options: WriteOptions = {}): Promise<PropertyChange | undefined> {
    return this.tx.delete.immediate(normalizePropertyKey(key), options);
  }
  async deleteMatching(query: PropertyQuery, options: DeleteMatchingOptions = {}): Promise<PropertyChange[]> {
    return this.tx.deleteMatching.immediate(query, options);
  }
  async copy(from: string, to: string, options: WriteOptions = {}): Promise<UpdateResult> {
    return this.tx.copy.immediate(normalizePropertyKey(from), normalizePropertyKey(to), options);
  }
  async move(from: string, to: string, options: WriteOptions = {}): Promise<UpdateResult> {
    return this.tx.move.immediate(normalizePropertyKey(from), normalizePropertyKey(to), options);
  }
  async deleteExpired(limit = 500): Promise<PropertyChange[]> {
    return this.tx.deleteExpired.immediate(limit);
  }
  async authorOf(key: string): Promise<string | null | undefined> {
    return this.stmt.author.get(normalizePropertyKey(key), this.clock());
  }
  runQuery(sql: string, params: unknown[], limits: { maxRows: number; timeoutMillis: number }) {
    return this.queries.run(sql, params, limits);
  }
  async close(): Promise<void> {
    // The database belongs to the server; it closes it. The query worker is ours.
    await this.queries.close();
  }

  // ---- writes, each run inside one BEGIN IMMEDIATE transaction ----

  private liveIdOf(key: string): number {
    const id = this.stmt.idOfLive.get(normalizePropertyKey(key), this.clock());
    if (id === undefined) throw propertyNotFound(key);
    return id;
  }

  /** The stored row at `key`; an expired one is deleted first and reported in `changes`. */
  private storedLive(key: string, now: number, changes: PropertyChange[]): StoredRow | undefined {
    const row = this.stmt.stored.get(key);
    if (!row) return undefined;
    if (hasExpired(row, now)) {
      this.stmt.delete.run(row.id);
      changes.push({ kind: 'deleted', origin: publicCopy(row), target: null });
      return undefined;
    }
    return row;
  }

  private insert(input: NewProperty, now: number, actor: string | null | undefined): Property {
    const c = createdColumns(input, now, actor);
    this.stmt.insert.run(
      randomUUID(),
      input.key,
      c.value,
      c.type,
      now,
      c.ttl,
      c.expiresAt,
      c.defaultValue,
      c.author,
    );
    return toProperty(this.stmt.live.get(input.key, now)!);
  }

  private applyPatch(
    row: StoredRow,
    patch: PropertyPatch,
    now: number,
    actor: string | null | undefined,
  ): Property {
    const c = patchedColumns(row, patch, actor);
    this.stmt.update.run(c.value, c.type, now, c.ttl, c.expiresAt, c.defaultValue, c.author, row.id);
    return publicCopy(this.stmt.storedById.get(row.id)!);
  }

  private saveNow(raw: NewProperty, options: SaveOptions): SaveResult {
    const input = { ...raw, key: normalizePropertyKey(raw.key) };
    const now = this.clock();
    const changes: PropertyChange[] = [];
    const row = this.storedLive(input.key, now, changes);
    if (!row) {
      const property = this.insert(input, now, options.actor);
      changes.push({ kind: 'created', origin: null, target: property });
      this.adoptNow(this.liveIdOf(input.key), options.adopt, now, changes);
      return { result: 'create', property, changes };
    }
    const strategy = options.ifExists ?? 'error';
    if (strategy === 'error') {
      throw propertyExists(input.key);
    }
    if (strategy === 'skip') return { result: 'skip', property: publicCopy(row), changes };
    // An update sets what was given; the time to live counts from creation and stays as it was.
    const property = this.applyPatch(row, savePatch(input), now, options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(row), target: property });
    this.adoptNow(row.id, options.adopt, now, changes);
    return { result: 'update', property, changes };
  }

  /** Moves staged attachments onto the saved property `targetId`, then deletes their staging properties. */
  private adoptNow(
    targetId: number,
    adoptions: SaveOptions['adopt'],
    now: number,
    changes: PropertyChange[],
  ): void {
    if (!adoptions?.length) return;
    for (const adoption of adoptions) {
      const staging = this.storedLive(normalizePropertyKey(adoption.from), now, changes);
      if (!staging || staging.id === targetId) throw stagedPropertyMissing(adoption);
      this.attachments.adoptNow(targetId, staging.id, adoption);
    }
    for (const key of stagingKeysOf(adoptions)) {
      const change = this.deleteNow(normalizePropertyKey(key));
      if (change) changes.push(change);
    }
  }

  private updateNow(key: string, patch: PropertyPatch, options: UpdateOptions): UpdateResult {
    const now = this.clock();
    const changes: PropertyChange[] = [];
    const row = this.storedLive(key, now, changes);
    if (!row) throw propertyNotFound(key);
    if (options.expectedVersion !== undefined && options.expectedVersion !== row.version) {
      throw versionConflict(key, options.expectedVersion, row.version);
    }
    const guarded = options.guard?.(publicCopy(row), parseTags(row.tags));
    const property = this.applyPatch(row, guarded ?? patch, now, options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(row), target: property });
    return { property, changes };
  }

  private deleteNow(key: string): PropertyChange | undefined {
    const row = this.stmt.stored.get(key);
    if (!row || hasExpired(row, this.clock())) return undefined;
    this.stmt.delete.run(row.id);
    return { kind: 'deleted', origin: publicCopy(row), target: null };
  }

  private deleteMatchingNow(query: PropertyQuery, options: DeleteMatchingOptions): PropertyChange[] {
    const matches = this.listSync(query);
    for (const property of matches) options.guard?.(property);
    const changes: PropertyChange[] = [];
    for (const property of matches) {
      const row = this.stmt.stored.get(property.key)!;
      this.stmt.delete.run(row.id);
      changes.push({ kind: 'deleted', origin: property, target: null });
    }
    return changes;
  }

  private copyNow(from: string, to: string, options: WriteOptions): UpdateResult {
    if (from === to) throw ontoItself('copied');
    const now = this.clock();
    const source = this.stmt.live.get(from, now);
    if (!source) throw propertyNotFound(from);
    const fields = toProperty(source);
    const changes: PropertyChange[] = [];
    const target = this.storedLive(to, now, changes);
    const copy = {
      value: fields.value,
      type: fields.type,
      timeToLive: fields.timeToLive,
      defaultValue: fields.defaultValue,
    };
    if (!target) {
      const property = this.insert({ key: to, ...copy }, now, options.actor);
      changes.push({ kind: 'created', origin: null, target: property });
      return { property, changes };
    }
    const property = this.applyPatch(target, copy, now, options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(target), target: property });
    return { property, changes };
  }

  private moveNow(from: string, to: string, options: WriteOptions): UpdateResult {
    if (from === to) throw ontoItself('moved');
    const now = this.clock();
    const changes: PropertyChange[] = [];
    const source = this.storedLive(from, now, changes);
    if (!source) throw propertyNotFound(from);
    if (this.storedLive(to, now, changes)) {
      throw propertyExists(to);
    }
    this.stmt.rename.run(to, now, options.actor ?? null, source.id);
    const property = publicCopy(this.stmt.storedById.get(source.id)!);
    changes.push({ kind: 'deleted', origin: publicCopy(source), target: null });
    changes.push({ kind: 'created', origin: null, target: property });
    return { property, changes };
  }

  private deleteExpiredNow(limit: number): PropertyChange[] {
    const rows = this.stmt.expired.all(this.clock(), limit);
    for (const row of rows) this.stmt.delete.run(row.id);
    return rows.map((row) => ({ kind: 'deleted', origin: publicCopy(row), target: null }));
  }
}
