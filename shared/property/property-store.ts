/**
 * The storage contract of the property store. It is asynchronous so that a PostgreSQL implementation (for
 * several server instances) can fulfil it; the SQLite one answers at once. Every implementation must pass
 * `server/store/property-store.contract.ts`. Access rules are not the store's business: callers pass the
 * scope a reader may see and check write rights before writing.
 */
import type { PropertyQuery } from './property-query';
import type { KeyScope } from './key-range';
import type { PropertyHistoryReader } from './property-history';
import type { PropertyMarks, PropertyTags } from './property-marks';
import type { InstancePage, InstancePageQuery } from './instance-page';
import type { NewProperty, Property, PropertyAttachment, PropertyChange, PropertyPatch } from './property';

export type { PropertyQuery } from './property-query';

export interface WriteOptions {
  /** Uuid of the user making the change; recorded as the author when the change writes the value. */
  actor?: string | null;
}

/** What `save` does when the key exists: overwrite the given fields, leave it, or fail with PROPERTY_EXISTS. */
export type ExistStrategy = 'update' | 'skip' | 'error';

export interface SaveOptions extends WriteOptions {
  ifExists?: ExistStrategy;
  /**
   * Staged attachments moved onto the saved property inside the save's transaction (not on `skip`): the
   * property and its attachments appear together, and a failure moves nothing (docs/forms-and-lists.md).
   */
  adopt?: readonly AttachmentAdoption[];
}

/** An attachment staged on another property, to become an attachment of the property a `save` writes. */
export interface AttachmentAdoption {
  /** The live property it is staged on; deleted (with anything else attached to it) once it is moved. */
  from: string;
  /** Its name there. */
  name: string;
  /** Its name on the saved property (an attachment of that name there is replaced). */
  as: string;
  /** Its length as the caller checked it: CONFLICT when it has changed since. */
  length: number;
  contentType: string;
}

export interface UpdateOptions extends WriteOptions {
  /** Compare-and-swap: fail with CONFLICT unless the stored version is this one. */
  expectedVersion?: number;
  /**
   * Called inside the write's transaction with the property as stored (its row locked on PostgreSQL) and its
   * tags, before anything changes: throw to refuse the write (nothing is written), or answer the patch to
   * write instead of the given one. So a lock set by another instance cannot slip in between check and write,
   * and the write reads the row once.
   */
  guard?: (current: Property, tags: PropertyTags | undefined) => PropertyPatch | void;
}

export interface DeleteMatchingOptions extends WriteOptions {
  /**
   * Called for each property about to be deleted, inside the transaction; throwing aborts the whole
   * delete (nothing is deleted).
   */
  guard?: (property: Property) => void;
}

export interface SaveResult {
  result: 'create' | 'update' | 'skip';
  property: Property;
  /** The committed changes in order (an expired property replaced by a create shows up as deleted first). */
  changes: PropertyChange[];
}

export interface UpdateResult {
  property: Property;
  changes: PropertyChange[];
}

/** The SQL spelling a store's `runQuery` speaks (`property.query` translates for it). */
export type QueryDialect = 'sqlite' | 'postgres';

/** A request for one page of a tree level (`PropertyStore.childrenPage`). */
export interface ChildrenPageQuery {
  /** The folder key, or null for the top level. */
  parent: string | null;
  /** The page starts after this entry (a child of `parent` as a page gives it: the previous page's `next`). */
  after?: string;
  /** At most this many entries. */
  limit: number;
  /** Only entries passing this show (the reader's rules); the others are passed over and do not count. */
  accept?: (child: string) => boolean;
}

/** One page of a tree level. */
export interface ChildrenPage {
  /** Keys as they are, sub-folders ending in `/`, sorted. */
  children: string[];
  /** The cursor for the next page (the last entry given), or null when the level is complete. */
  next: string | null;
}

/** Rows of `runQuery`: value lists in column order. */
export interface QueryRows {
  columns: string[];
  rows: unknown[][];
}

export interface PropertyStore {
  /** The live property at `key` (expired ones are never returned). */
  get(key: string): Promise<Property | undefined>;
  /** Live properties matching the query, in key order. */
  list(query: PropertyQuery): Promise<Property[]>;
  /** Their keys only. */
  keys(query: PropertyQuery): Promise<string[]>;
  /** The key of the live property with this uuid (for `/api/v3/pipeline:uuid:<uuid>`). */
  keyOfUuid(uuid: string): Promise<string | undefined>;
  /**
   * The next level below `parent` (a folder key, or null for the top level): keys of properties as they
   * are, sub-folders with a trailing `/`; a name that is both appears twice. Only inside `scope`.
   */
  children(parent: string | null, scope?: KeyScope): Promise<string[]>;
  /**
   * Up to `limit` entries of the level below `parent` after the entry `after`, in the order and form of
   * `children`, found without reading the rest of the level: a sub-folder costs one index seek however much
   * it holds, and the scan stops once the page is full.
   */
  childrenPage(query: ChildrenPageQuery): Promise<ChildrenPage>;
  /**
   * Creates the property, or applies `ifExists` (default `error`: PROPERTY_EXISTS) when the key is taken;
   * `update` sets the given value, type and default value and leaves the time to live as it was.
   */
  save(input: NewProperty, options?: SaveOptions): Promise<SaveResult>;
  /** `save` of each input in order, in one transaction: all or nothing (`property.import`). */
  saveMany(inputs: readonly NewProperty[], options?: SaveOptions): Promise<SaveResult[]>;
  /** Changes an existing property (PROPERTY_NOT_FOUND; CONFLICT on a version mismatch). */
  update(key: string, patch: PropertyPatch, options?: UpdateOptions): Promise<UpdateResult>;
  /** Deletes one property with its attachments; undefined when there was none. */
  delete(key: string, options?: WriteOptions): Promise<PropertyChange | undefined>;
  /** Deletes every live property matching the query, all or nothing. */
  deleteMatching(query: PropertyQuery, options?: DeleteMatchingOptions): Promise<PropertyChange[]>;
  /** Copies value, type, time to live and default value to `to`, overwriting it; attachments stay behind. */
  copy(from: string, to: string, options?: WriteOptions): Promise<UpdateResult>;
  /** Moves a property (uuid and attachments go along); PROPERTY_EXISTS when `to` is taken. */
  move(from: string, to: string, options?: WriteOptions): Promise<UpdateResult>;
  /** Deletes up to `limit` expired properties; returns what it deleted. */
  deleteExpired(limit?: number): Promise<PropertyChange[]>;
  /**
   * The uuid of the user who last wrote the property's value (null when unknown), undefined when it does not
   * exist. A move, or a change that leaves the value as it is, keeps the author: stored event.listen
   * pipelines run as their author, and someone who only moved or retyped a pipeline did not write it.
   */
  authorOf(key: string): Promise<string | null | undefined>;
  /**
   * One page of the live instances directly inside an object's instance folder, filtered and sorted by fields
   * of their JSON values (ties and no sort: key order), with the count of all matching. Access rules are the
   * caller's: the folder belongs to one app, so one check covers every row.
   */
  instancePage(query: InstancePageQuery): Promise<InstancePage>;
  readonly attachments: AttachmentStore;
  /** The kept versions of each key, written in the same transaction as every change (docs/history.md). */
  readonly history: PropertyHistoryReader;
  /** Tags, locks and the trash bin (docs/property-marks.md). */
  readonly marks: PropertyMarks;
  readonly queryDialect: QueryDialect;
  /**
   * Runs one read-only SELECT that `property.query` built (never user text: values are bound), bounded by
   * `timeoutMillis` and returning at most `maxRows` rows; LIMIT_EXCEEDED past the time.
   */
  runQuery(
    sql: string,
    params: unknown[],
    limits: { maxRows: number; timeoutMillis: number },
  ): Promise<QueryRows>;
  close(): Promise<void>;
}

/**
 * Synchronous reads, for the `@property` PEL utility (expressions evaluate synchronously). The SQLite store
 * offers them; a store that cannot (a network database) leaves them out and the utility is unavailable.
 */
export interface SyncPropertyReader {
  getSync(key: string): Property | undefined;
  listSync(query: PropertyQuery): Property[];
}

/**
 * The synchronous write `@property.updateValue` needs: the same transaction as `update`, answered at once.
 * Stores that can only write asynchronously leave it out, and the utility cannot write.
 */
export interface SyncPropertyWriter {
  updateSync(key: string, patch: PropertyPatch, options?: UpdateOptions): UpdateResult;
}

export interface AttachmentPutOptions {
  contentType?: string;
  /** Replaces all chunks with this one; when absent the chunks stay as they are. */
  content?: Uint8Array;
}

export interface AttachmentWriteOptions {
  contentType?: string;
  /** PAYLOAD_TOO_LARGE past this many bytes (nothing is kept then). */
  maxBytes?: number;
}

/** Attachments of a property: named binary contents stored in chunks, read and written chunk by chunk. */
export interface AttachmentStore {
  /** Creates or replaces the attachment's metadata (and content, when given). */
  put(key: string, name: string, options?: AttachmentPutOptions): Promise<PropertyAttachment>;
  /** Appends a chunk, or replaces the chunk at `index`; creates the attachment when missing. */
  putChunk(key: string, name: string, data: Uint8Array, index?: number): Promise<PropertyAttachment>;
  /**
   * Streams content in, holding at most one chunk in memory; the attachment appears (replacing an older
   * one of the same name) only once the stream has ended.
   */
  write(
    key: string,
    name: string,
    source: AsyncIterable<Uint8Array>,
    options?: AttachmentWriteOptions,
  ): Promise<PropertyAttachment>;
  list(key: string): Promise<PropertyAttachment[]>;
  get(key: string, name: string): Promise<PropertyAttachment | undefined>;
  readChunk(key: string, name: string, index: number): Promise<Uint8Array | undefined>;
  /** The content chunk by chunk (PROPERTY_NOT_FOUND when the attachment does not exist). */
  read(key: string, name: string): AsyncIterable<Uint8Array>;
  /** True when there was an attachment to delete. */
  delete(key: string, name: string): Promise<boolean>;
}
