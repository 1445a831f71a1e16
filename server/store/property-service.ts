/**
 * The property store as commands use it: every operation on behalf of a principal, with key rules, the folder
 * access rules, value conversion, object schema validation, and `property.*` events published after commit.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { stringifyBounded } from '../../shared/values';
import {
  compileKeyPattern,
  isPropertyRoot,
  normalizePropertyKey,
  normalizePropertyType,
  objectKeyOf,
  toStoredValue,
  type ExistStrategy,
  type JsonValue,
  type NewProperty,
  type Property,
  type PropertyChange,
  type PropertyPatch,
  type PropertyStore,
  type PropertyTags,
  type SaveResult,
} from '../../shared/property';
import type { EventBus } from '../events/event-bus';
import { propertyChangeEvents } from '../events/property-change-events';
import { ObjectSchemaValidator } from './object-schema-validator';
import { PropertyAccess } from './property-access';
import { PropertyAttachmentService } from './property-attachment-service';
import { PropertyWriteGuard } from './property-locks';
import { stagedFilesOf } from './staged-attachments';
import { PropertyMarksService } from './property-marks-service';
import { isSealedValue, refuseSealedLookalike, type PropertyValueCipher } from './property-value-cipher';
import {
  isSyncPropertyStore,
  read,
  runAsync,
  runSync,
  update,
  type WriteSteps,
} from './property-write-steps';

export interface PropertyServiceOptions {
  store: PropertyStore;
  events: EventBus;
  access?: PropertyAccess;
  /** Longest value (and default value, as JSON text) in characters; default `MAX_VALUE_LENGTH`. */
  maxValueLength?: number;
  /**
   * The store records events in each write's transaction (the PostgreSQL outbox) and a relay delivers them to
   * `events`: the service then publishes nothing itself. Default false (SQLite: published after commit).
   */
  eventsFromStore?: boolean;
  /** The installation's namespace (the IAM realm): a `namespace` lock without a name is to it. */
  realm?: string;
  /** Days the trash bin keeps what is deleted into it (default `DEFAULT_TRASH_BIN_DAYS`). */
  trashBinDays?: number;
  /** Epoch milliseconds now, for lock times and the bin (the store's clock in tests); default `Date.now`. */
  clock?: () => number;
  /** Seals the values of encrypted properties (the installation's secrets key); without it `encrypted` is refused. */
  cipher?: PropertyValueCipher;
}

/** 16 MiB characters: room for the base64 of a 10 MiB command body (the default body limit), and more. */
export const MAX_VALUE_LENGTH = 16 * 1024 * 1024;

/** What `property.schema.put` takes. */
export interface CreatePropertyInput {
  key: unknown;
  value?: unknown;
  type?: unknown;
  timeToLive?: unknown;
  defaultValue?: unknown;
  /** Store the value sealed, now and on every later write (guides/180_encryption.md); never undone. */
  encrypted?: boolean;
}

/** What `property.put` takes. */
export interface PutPropertyInput {
  key: unknown;
  value?: unknown;
  type?: unknown;
  /** Compare-and-swap: the version the caller last saw. */
  version?: number;
}

function notFound(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' does not exist.`, { key });
}

/** The length of a value as JSON text, or just past `max` when it is longer (never built in full). */
function jsonLength(value: unknown, max: number): number {
  const json = stringifyBounded(value, max);
  return json.ok ? json.text.length : max + 1;
}

/** PAYLOAD_TOO_LARGE when the value or the default value (stored as JSON text) is longer than `max` characters. */
function checkSize(max: number, value: string | null | undefined, defaultValue?: unknown): void {
  const sizes: [string, number][] = [
    ['value', value?.length ?? 0],
    ['defaultValue', defaultValue === undefined ? 0 : jsonLength(defaultValue, max)],
  ];
  for (const [parameter, length] of sizes) {
    if (length > max) {
      throw new PipeworkError(
        'PAYLOAD_TOO_LARGE',
        `The ${parameter} is ${length} characters long; a property holds at most ${max}.`,
        { parameter, limitChars: max },
      );
    }
  }
}

/**
 * The stored text and type of a value. A type given wins; otherwise non-strings get their derived type
 * (JSON, base64), and strings none, so an update keeps the type the property has. Object instances are JSON.
 */
function storedForm(key: string, value: unknown, rawType: unknown): { value?: string | null; type?: string } {
  const type =
    normalizePropertyType(rawType) ??
    (objectKeyOf(key)?.kind === 'instance' ? 'application/json' : undefined);
  if (value === undefined) return type ? { type } : {};
  const stored = toStoredValue(value, type);
  return typeof value === 'string' || value === null
    ? { value: stored.value, ...(type ? { type } : {}) }
    : stored;
}

/** The parent folder of a `property.keys.children` pattern: `a/b`, `a/b/` and `a/b/*` all mean `a/b`; none or `/` the top. */
export function parseChildrenPattern(raw: unknown): string | null {
  const text = typeof raw === 'string' ? raw : '';
  // One leading `/` is tolerated, as in keys; a second one is an empty segment.
  let base = text.startsWith('/') ? text.slice(1) : text;
  if (base.endsWith('/*')) base = base.slice(0, -2);
  else if (base.endsWith('/')) base = base.slice(0, -1);
  if (text === '' || text === '/' || base === '*') return null;
  if (base.includes('*') || base.startsWith('/')) {
    const reason = base.startsWith('/') ? 'empty segment' : 'nested patterns are not supported here';
    throw new PipeworkError('KEY_INVALID', `Invalid folder '${text.slice(0, 80)}': ${reason}.`, {
      parameter: 'pattern',
    });
  }
  return isPropertyRoot(base) ? base : normalizePropertyKey(base);
}

export class PropertyService {
  readonly store: PropertyStore;
  readonly events: EventBus;
  readonly access: PropertyAccess;
  readonly attachments: PropertyAttachmentService;
  /** The folder rules and locks every write passes (one place: `property-locks.ts`). */
  readonly guard: PropertyWriteGuard;
  /** Tags, locks and the trash bin. */
  readonly marks: PropertyMarksService;
  private readonly validator = new ObjectSchemaValidator();
  private readonly maxValueLength: number;
  private readonly eventsFromStore: boolean;
  private readonly cipher: PropertyValueCipher | undefined;

  constructor(options: PropertyServiceOptions) {
    this.store = options.store;
    this.cipher = options.cipher;
    this.events = options.events;
    this.eventsFromStore = options.eventsFromStore ?? false;
    this.access = options.access ?? new PropertyAccess();
    this.maxValueLength = options.maxValueLength ?? MAX_VALUE_LENGTH;
    const clock = options.clock ?? Date.now;
    this.guard = new PropertyWriteGuard(this.access, this.store.marks, clock, () => options.realm);
    this.attachments = new PropertyAttachmentService(this.store.attachments, this.access, this.guard);
    this.marks = new PropertyMarksService(this, options.trashBinDays, clock);
  }

  /** FORBIDDEN where the folder rules deny writing the key, CONFLICT where a lock does; the normalized key. */
  async assertWritable(principal: Principal | null, rawKey: unknown): Promise<string> {
    const key = normalizePropertyKey(rawKey);
    await this.guard.assertWritable(principal, key);
    return key;
  }

  private readonly committedListeners = new Set<(changes: readonly PropertyChange[]) => void>();

  /**
   * Calls `listener` with each write's changes on this instance, synchronously once it committed, before any
   * event is delivered (in-process caches drop what changed before the writer's answer leaves); other
   * instances' writes reach a cache through `events`. Returns the function that removes it.
   */
  onCommitted(listener: (changes: readonly PropertyChange[]) => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** Publishes each committed change as `property.<kind>` with `{origin, target}` (the store's own events aside). */
  publish(changes: readonly PropertyChange[], principal: Principal | null): void {
    for (const listener of this.committedListeners) listener(changes);
    if (this.eventsFromStore) return;
    for (const event of propertyChangeEvents(changes, principal?.uuid)) {
      this.events.publish(event.eventKey, event.payload, { actor: event.actor });
    }
  }

  private async validate(key: string, value: string | null, type: string): Promise<void> {
    await this.validator.check(key, value, type, (schemaKey) => this.store.get(schemaKey));
  }

  /** The property, or PROPERTY_NOT_FOUND; FORBIDDEN where the folder rules deny reading. */
  async get(principal: Principal | null, rawKey: unknown): Promise<Property> {
    const key = normalizePropertyKey(rawKey);
    this.access.assertRead(principal, key);
    const property = await this.store.get(key);
    if (!property) throw notFound(key);
    return property;
  }

  /** The property with this uuid, read with the principal's rights; PROPERTY_NOT_FOUND when there is none. */
  async getByUuid(principal: Principal | null, uuid: string): Promise<Property> {
    const key = await this.store.keyOfUuid(uuid);
    if (key === undefined) throw notFound(`uuid:${uuid}`);
    return this.get(principal, key);
  }

  async exists(principal: Principal | null, rawKey: unknown): Promise<boolean> {
    const key = normalizePropertyKey(rawKey);
    this.access.assertRead(principal, key);
    return (await this.store.get(key)) !== undefined;
  }

  /**
   * Properties matching `pattern` (default everything) that the principal may read, in key order; keys
   * matching one of `excludePatterns` are left out, then `offset` skips and `limit` bounds the page.
   */
  async list(
    principal: Principal | null,
    pattern: unknown = '**',
    limit?: number,
    page: { offset?: number; excludePatterns?: readonly unknown[] } = {},
  ): Promise<Property[]> {
    const query = this.readQuery(principal, pattern);
    const excluded = (page.excludePatterns ?? []).map((p) => compileKeyPattern(p));
    const readable = query.filter;
    const filter =
      excluded.length === 0
        ? readable
        : (key: string) => (!readable || readable(key)) && !excluded.some((p) => p.matches(key));
    const offset = page.offset ?? 0;
    const listed = await this.store.list({
      ...query,
      filter,
      limit: limit === undefined ? undefined : offset + limit,
    });
    return offset === 0 ? listed : listed.slice(offset);
  }

  async keys(principal: Principal | null, pattern: unknown = '**'): Promise<string[]> {
    return this.store.keys(this.readQuery(principal, pattern));
  }

  /**
   * A query over what the principal may read: the folders to scan, narrowed per key by the app rules
   * (before any limit counts, so a limit is never eaten up by keys the caller may not see).
   */
  readQuery(principal: Principal | null, pattern: unknown) {
    const compiled = compileKeyPattern(pattern);
    const scope = this.access.readScope(principal);
    return this.access.needsFilter(principal)
      ? { pattern: compiled, scope, filter: this.access.readFilter(principal) }
      : { pattern: compiled, scope };
  }

  /** The next tree level below a folder: keys as they are, sub-folders ending in `/`. */
  async children(principal: Principal | null, pattern?: unknown): Promise<string[]> {
    const parent = parseChildrenPattern(pattern);
    const children = await this.store.children(parent, this.access.readScope(principal));
    const readable = this.access.readFilter(principal);
    const folderVisible = this.access.folderFilter(principal);
    return children.filter((child) =>
      child.endsWith('/') ? folderVisible(child.slice(0, -1)) : readable(child),
    );
  }

  /** Creates a property, or applies the exist strategy (default `update`, as the real product does). */
  async create(
    principal: Principal | null,
    input: CreatePropertyInput,
    ifExists: ExistStrategy = 'update',
  ): Promise<SaveResult> {
    const staged = await this.stagedFiles(principal, input);
    const prepared = await this.prepareCreate(principal, staged ? { ...input, value: staged.value } : input);
    const result = await this.store.save(prepared, {
      ifExists,
      actor: principal?.uuid ?? null,
      ...(staged ? { adopt: staged.adopt } : {}),
    });
    this.publish(result.changes, principal);
    return result;
  }

  /**
   * An object instance's files uploaded before (staged), checked, with the value as it is stored
   * (`staged-attachments.ts`); the store moves them onto the instance in the transaction that stores it.
   */
  private async stagedFiles(principal: Principal | null, input: CreatePropertyInput) {
    const key = normalizePropertyKey(input.key);
    if (objectKeyOf(key)?.kind !== 'instance' || input.value === undefined) return undefined;
    return stagedFilesOf(principal, input.value, {
      attachments: this.store.attachments,
      assertWritable: (p, k) => this.guard.assertWritable(p, k),
    });
  }

  /**
   * `create` of every input in one transaction (`property.import`): each is checked first (key rules, the
   * caller's write right, size, object schema), and one failing check, or an existing key under `error`,
   * writes none of them.
   */
  async createMany(
    principal: Principal | null,
    inputs: readonly CreatePropertyInput[],
    ifExists: ExistStrategy,
  ): Promise<SaveResult[]> {
    const prepared: NewProperty[] = [];
    for (const input of inputs) prepared.push(await this.prepareCreate(principal, input));
    const results = await this.store.saveMany(prepared, { ifExists, actor: principal?.uuid ?? null });
    this.publish(
      results.flatMap((r) => r.changes),
      principal,
    );
    return results;
  }

  private async prepareCreate(principal: Principal | null, input: CreatePropertyInput): Promise<NewProperty> {
    const key = await this.assertWritable(principal, input.key);
    const stored = storedForm(key, input.value, input.type);
    checkSize(this.maxValueLength, stored.value, input.defaultValue);
    refuseSealedLookalike(stored.value);
    const encrypted = input.encrypted === true;
    const current = objectKeyOf(key) || encrypted || this.cipher ? await this.store.get(key) : undefined;
    const sealed = encrypted || isSealedValue(current?.value);
    if (objectKeyOf(key)) {
      const value =
        stored.value !== undefined
          ? stored.value
          : current && isSealedValue(current.value)
            ? this.open(current)
            : (current?.value ?? null);
      await this.validate(key, value, stored.type ?? current?.type ?? 'text/plain');
    }
    if (sealed) {
      // A plain value already there is sealed too when `encrypted` comes later; a sealed one stays as it is.
      const plain =
        stored.value !== undefined
          ? stored.value
          : isSealedValue(current?.value)
            ? undefined
            : (current?.value ?? null);
      if (plain !== undefined) stored.value = this.sealer().seal(plain);
    }
    return {
      key,
      ...stored,
      timeToLive: input.timeToLive as number | null | undefined,
      defaultValue: input.defaultValue as JsonValue | undefined,
    };
  }

  /** Sets the value of an existing property (PROPERTY_NOT_FOUND; CONFLICT when `version` is not current). */
  async put(principal: Principal | null, input: PutPropertyInput): Promise<Property> {
    return runAsync(this.putSteps(principal, input), this.store);
  }

  /** True when `putSync` works: the store reads and writes synchronously (SQLite; not a network database). */
  get canWriteSync(): boolean {
    return isSyncPropertyStore(this.store);
  }

  /**
   * `put` at once, for `@property.updateValue` (expressions evaluate synchronously): the same rules, on a
   * store that reads and writes synchronously (see `isSyncPropertyStore`).
   */
  putSync(principal: Principal | null, input: PutPropertyInput): Property {
    // Callers ask `canWriteSync` first; reaching this is a bug (INTERNAL), not bad input.
    if (!isSyncPropertyStore(this.store)) throw new Error('putSync needs a store that writes synchronously');
    return runSync(this.putSteps(principal, input), this.store);
  }

  /** The rules of `put`, once for both ways of running them. */
  private *putSteps(principal: Principal | null, input: PutPropertyInput): WriteSteps<Property> {
    const key = normalizePropertyKey(input.key);
    this.access.assertWrite(principal, key);
    const stored = storedForm(key, input.value === undefined ? null : input.value, input.type);
    checkSize(this.maxValueLength, stored.value);
    refuseSealedLookalike(stored.value);
    const objectKey = objectKeyOf(key);
    if (objectKey) {
      const current = yield* read(key);
      if (!current) throw notFound(key);
      const schema = objectKey.kind === 'instance' ? yield* read(objectKey.schemaKey) : undefined;
      this.validator.checkAgainst(key, stored.value ?? null, stored.type ?? current.type, schema);
    }
    // The lock and a sealed value are read with the row the write changes, inside its transaction.
    const guard = (current: Property, tags: PropertyTags | undefined): PropertyPatch | void => {
      this.guard.assertLockAllows(principal, key, tags);
      if (isSealedValue(current.value) && (objectKey || this.cipher)) {
        return { ...stored, value: this.sealer().seal(stored.value ?? null) };
      }
    };
    const { property, changes } = yield* update(key, stored, {
      expectedVersion: input.version,
      actor: principal?.uuid ?? null,
      guard,
    });
    this.publish(changes, principal);
    return property;
  }

  private sealer(): PropertyValueCipher {
    if (!this.cipher)
      throw new PipeworkError(
        'PARAM_INVALID',
        'Encrypted properties need the secrets key, which this service lacks.',
        {
          parameter: 'encrypted',
        },
      );
    return this.cipher;
  }

  private open(property: Property): string | null {
    return this.sealer().open(property.value!, property.key);
  }

  /**
   * Seals every encrypted value again with `next` (the secrets key's rotation), each as a compare-and-swap
   * write (a value changed meanwhile is read again). Versions in the history keep the key they were sealed
   * with: after the rotation they no longer open (docs/decisions.md).
   */
  async resealEncrypted(next: { id: string; key: Buffer }): Promise<number> {
    const cipher = this.sealer();
    let count = 0;
    for (const key of await this.store.keys({ pattern: '**' })) {
      for (let attempt = 0; ; attempt++) {
        const property = await this.store.get(key);
        if (!property || !isSealedValue(property.value) || property.value!.includes(`"v1:${next.id}:`)) break;
        try {
          const value = cipher.reseal(property.value!, key, next);
          await this.store.update(key, { value }, { expectedVersion: property.version, actor: null });
          count++;
          break;
        } catch (error) {
          if (!(error instanceof PipeworkError && error.code === 'CONFLICT') || attempt >= 5) throw error;
        }
      }
    }
    return count;
  }

  /** A stored value (of a version, say) opened when it is sealed, and whether it was. */
  plainOf(key: string, value: string | null): { value: string | null; encrypted: boolean } {
    if (!isSealedValue(value)) return { value, encrypted: false };
    return { value: this.sealer().open(value!, key), encrypted: true };
  }

  /** Whether the property's value is stored sealed (`encrypted: true`). */
  isEncrypted(property: Property): boolean {
    return isSealedValue(property.value);
  }

  /**
   * The property with its value opened (`property.value.get` with `decrypt`): the property was read with
   * `get`, so the caller may read it; a value that is not sealed is given as it is.
   */
  decrypted(property: Property): Property {
    return isSealedValue(property.value) ? { ...property, value: this.open(property) } : property;
  }

  /** Deletes one property (PROPERTY_NOT_FOUND when there is none). */
  async delete(principal: Principal | null, rawKey: unknown): Promise<Property> {
    const deleted = await this.remove(principal, rawKey);
    if (!deleted) throw notFound(normalizePropertyKey(rawKey));
    return deleted;
  }

  /** Deletes one property if it exists (`property.schema.delete`: nothing happens when it does not). */
  async remove(principal: Principal | null, rawKey: unknown): Promise<Property | null> {
    const key = await this.assertWritable(principal, rawKey);
    const change = await this.store.delete(key, { actor: principal?.uuid ?? null });
    if (!change) return null;
    this.publish([change], principal);
    return change.origin;
  }

  /**
   * Deletes every property matching `pattern` that the principal can see; FORBIDDEN (and nothing deleted)
   * when one of them may not be changed, e.g. a reserved app.
   */
  async deleteMatching(principal: Principal | null, pattern: unknown): Promise<Property[]> {
    // Keys the caller may not read are left alone (and never named in an error), not refused.
    const query = this.readQuery(principal, pattern);
    const lockCheck = await this.guard.lockCheck(principal, await this.store.keys(query));
    const changes = await this.store.deleteMatching(query, {
      actor: principal?.uuid ?? null,
      guard: (p) => {
        this.access.assertWrite(principal, p.key);
        lockCheck(p.key);
      },
    });
    this.publish(changes, principal);
    return changes.map((c) => c.origin!);
  }

  /** Copies a property to `to`, overwriting what is there (attachments are not copied). */
  async copy(principal: Principal | null, rawFrom: unknown, rawTo: unknown): Promise<Property> {
    const from = normalizePropertyKey(rawFrom);
    const to = normalizePropertyKey(rawTo);
    this.access.assertRead(principal, from);
    await this.guard.assertWritable(principal, to);
    if (objectKeyOf(to)) {
      const source = await this.store.get(from);
      if (source) await this.validate(to, source.value, source.type);
    }
    const { property, changes } = await this.store.copy(from, to, { actor: principal?.uuid ?? null });
    this.publish(changes, principal);
    return property;
  }

  /** Moves a property with its attachments; PROPERTY_EXISTS when `to` is taken. */
  async move(principal: Principal | null, rawFrom: unknown, rawTo: unknown): Promise<Property> {
    const from = normalizePropertyKey(rawFrom);
    const to = normalizePropertyKey(rawTo);
    this.access.assertRead(principal, from);
    await this.guard.assertWritable(principal, from);
    await this.guard.assertWritable(principal, to);
    if (objectKeyOf(to)) {
      const source = await this.store.get(from);
      if (source) await this.validate(to, source.value, source.type);
    }
    const { property, changes } = await this.store.move(from, to, { actor: principal?.uuid ?? null });
    this.publish(changes, principal);
    return property;
  }

  /**
   * Deletes all expired properties in batches, publishing `property.deleted` for each, then empties the trash
   * bin of what is past its time; returns how many were deleted in all.
   */
  async deleteExpired(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const changes = await this.store.deleteExpired(batch);
      this.publish(changes, null);
      total += changes.length;
      if (changes.length < batch) break;
    }
    return total + (await this.marks.purgeExpired(batch));
  }
}
