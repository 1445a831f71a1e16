/**
 * Tags, locks and the trash bin on behalf of a principal (docs/property-marks.md): the folder rules, the lock
 * rules (`property-locks.ts`) and bounds on what a caller may store, over the store's `marks`.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  LOCK_TAG,
  normalizePropertyKey,
  type LockTag,
  type LockType,
  type Property,
  type PropertyTags,
  type TrashedProperty,
} from '../../shared/property';
import { MAX_LOCK_DETAILS, lockOf, lockedError } from './property-locks';
import type { PropertyChange, PropertyStore } from '../../shared/property';
import type { PropertyAccess } from './property-access';
import type { PropertyWriteGuard } from './property-locks';

/** What the marks need of the property service: an interface, so that the two files do not import each other. */
export interface MarksHost {
  readonly store: PropertyStore;
  readonly access: PropertyAccess;
  readonly guard: PropertyWriteGuard;
  assertWritable(principal: Principal | null, rawKey: unknown): Promise<string>;
  publish(changes: readonly PropertyChange[], principal: Principal | null): void;
  keys(principal: Principal | null, pattern?: unknown): Promise<string[]>;
}

/** Days the bin keeps a property when neither the caller nor the configuration says otherwise. */
export const DEFAULT_TRASH_BIN_DAYS = 30;
export const DAY_MILLIS = 24 * 60 * 60 * 1000;
/** Bounds on one property's tags. */
export const MAX_TAGS = 100;
export const MAX_TAG_NAME = 200;
export const MAX_TAG_VALUE = 10_000;

/** A lock as `property.lock.put` asks for it; names already resolved against the IAM by the command. */
export interface LockRequest {
  type?: LockType;
  /** Milliseconds; none: until removed (for `trash`: the bin's default). */
  ttl?: number | null;
  /** The user (type user), group (group) or tenant the lock is exclusive to. */
  uuid?: string | null;
  /** Username, role, group or namespace name. */
  name?: string | null;
  details?: string | null;
}

function invalid(parameter: string, message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter });
}

/** Checks the bounds of a tag set (names, values, count). */
function checkTags(tags: PropertyTags): void {
  const names = Object.keys(tags);
  if (names.length > MAX_TAGS) throw invalid('tags', `A property holds at most ${MAX_TAGS} tags.`);
  for (const name of names) {
    if (name.trim() === '' || name.length > MAX_TAG_NAME) {
      throw invalid('name', `A tag name is 1 to ${MAX_TAG_NAME} characters.`);
    }
    if (tags[name]!.length > MAX_TAG_VALUE) {
      throw invalid('value', `Tag '${name}' has a value longer than ${MAX_TAG_VALUE} characters.`);
    }
  }
}

/** The real product's tag list: `name1:value1, name2:value2` (a name without `:` gets the empty value). */
export function parseTagList(text: string): PropertyTags {
  const tags: PropertyTags = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    const name = (colon < 0 ? item : item.slice(0, colon)).trim();
    const value = colon < 0 ? '' : item.slice(colon + 1).trim();
    if (name === '') throw invalid('tags', `Tag '${item.slice(0, 80)}' has no name (write name:value).`);
    tags[name] = value;
  }
  return tags;
}

export class PropertyMarksService {
  private readonly trashBinMillis: number;

  constructor(
    private readonly properties: MarksHost,
    trashBinDays: number = DEFAULT_TRASH_BIN_DAYS,
    private readonly clock: () => number = Date.now,
  ) {
    this.trashBinMillis = Math.max(trashBinDays, 0) * DAY_MILLIS;
  }

  private get marks() {
    return this.properties.store.marks;
  }

  /** The tags of a property the principal may read (its lock among them); PROPERTY_NOT_FOUND when none. */
  async tags(principal: Principal | null, rawKey: unknown): Promise<PropertyTags> {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    const tags = await this.marks.tagsOf(key);
    if (!tags) throw notFound(key);
    return tags;
  }

  /** Adds (or overwrites) tags on a property the principal may change; its lock is changed by the lock commands only. */
  async putTags(principal: Principal | null, rawKey: unknown, add: PropertyTags): Promise<PropertyTags> {
    const key = await this.properties.assertWritable(principal, rawKey);
    if (LOCK_TAG in add) {
      throw invalid(
        'name',
        `The tag '${LOCK_TAG}' is set by property.lock.put and removed by property.lock.remove.`,
      );
    }
    const current = await this.marks.tagsOf(key);
    if (!current) throw notFound(key);
    const tags = { ...current, ...add };
    checkTags(tags);
    if (!(await this.marks.setTags(key, tags))) throw notFound(key);
    return tags;
  }

  /** The tags of listed keys (each already read by the caller's rules), for listings. */
  async tagsOfListed(keys: readonly string[]): Promise<Map<string, PropertyTags>> {
    return keys.length === 0 ? new Map() : this.marks.tagsOfKeys(keys);
  }

  /**
   * Locks a property. The caller must be allowed to change it (FORBIDDEN otherwise: a lock is a change) and
   * not be kept out by a lock already on it (CONFLICT naming its holder). A `trash` lock moves it into the bin.
   */
  async lock(principal: Principal | null, rawKey: unknown, request: LockRequest): Promise<LockTag> {
    const key = normalizePropertyKey(rawKey);
    if (!this.properties.access.canWrite(principal, key)) {
      throw new PipeworkError(
        'FORBIDDEN',
        `You may not lock '${key}': locking changes a property, and you may not change it.`,
        { key },
      );
    }
    await this.properties.guard.assertWritable(principal, key);
    const type = request.type ?? 'global';
    const ttl = request.ttl ?? null;
    const tag: LockTag = {
      ts: this.clock(),
      ttl,
      type,
      uuid: type === 'user' ? (request.uuid ?? principal?.uuid ?? null) : (request.uuid ?? null),
      name:
        type === 'user'
          ? (request.name ?? principal?.username ?? null)
          : type === 'global' || type === 'trash'
            ? null
            : (request.name ?? null),
      details: (request.details ?? '').slice(0, MAX_LOCK_DETAILS),
    };
    if ((type === 'role' || type === 'group') && !tag.name) {
      throw invalid('name', `A lock of type ${type} needs the name of the ${type} it is exclusive to.`);
    }
    if (type === 'trash') {
      await this.trashKeys(principal, [key], ttl ?? undefined);
      return tag;
    }
    const current = await this.marks.tagsOf(key);
    if (!current) throw notFound(key);
    if (!(await this.marks.setTags(key, { ...current, [LOCK_TAG]: JSON.stringify(tag) })))
      throw notFound(key);
    return tag;
  }

  /**
   * The lock tag of a property, null when it has none; for a key whose property lies in the trash bin, its
   * trash lock (to whoever may read and change the key).
   */
  async getLock(principal: Principal | null, rawKey: unknown): Promise<LockTag | null> {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    const tags = await this.marks.tagsOf(key);
    if (tags) return lockOf(tags, this.clock()) ?? null;
    const binned = await this.binnedFor(principal, key);
    if (!binned) throw notFound(key);
    return trashLockOf(binned);
  }

  /**
   * Removes the lock of a property, by whom it is exclusive to (or ROLE_SYSTEM); CONFLICT for anyone else. A key
   * whose property lies in the bin (and no live one holds it) is restored.
   */
  async removeLock(
    principal: Principal | null,
    rawKey: unknown,
  ): Promise<{ removed: boolean; restored?: Property }> {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    this.properties.access.assertWrite(principal, key);
    const tags = await this.marks.tagsOf(key);
    if (!tags) return { removed: true, restored: await this.restore(principal, key) };
    const lock = lockOf(tags, this.clock());
    if (lock && !this.properties.guard.allows(principal, lock)) throw lockedError(key, lock);
    if (!(LOCK_TAG in tags)) return { removed: false };
    const rest = { ...tags };
    delete rest[LOCK_TAG];
    await this.marks.setTags(key, rest);
    return { removed: true };
  }

  /**
   * Moves properties into the trash bin: the one at `key`, or every one matching `pattern` the caller may read.
   * All must be changeable by the caller (FORBIDDEN, or CONFLICT for a lock) or none moves. `ttlMillis`: how
   * long the bin keeps them (default: the configured days).
   */
  async trash(
    principal: Principal | null,
    target: { key?: unknown; pattern?: unknown },
    ttlMillis?: number,
  ): Promise<string[]> {
    const keys =
      target.pattern !== undefined
        ? await this.properties.keys(principal, target.pattern)
        : [normalizePropertyKey(target.key)];
    return (await this.trashKeys(principal, keys, ttlMillis)).map((t) => t.property.key);
  }

  private async trashKeys(
    principal: Principal | null,
    keys: readonly string[],
    ttlMillis?: number,
  ): Promise<TrashedProperty[]> {
    if (keys.length === 0) return [];
    const lockCheck = await this.properties.guard.lockCheck(principal, keys);
    for (const key of keys) {
      this.properties.access.assertWrite(principal, key);
      lockCheck(key);
    }
    const binned = await this.marks.trash(keys, {
      ttlMillis: ttlMillis ?? this.trashBinMillis,
      actor: principal?.uuid ?? null,
    });
    this.properties.publish(
      binned.map((b) => ({ kind: 'deleted', origin: b.property, target: null })),
      principal,
    );
    return binned;
  }

  /** What the bin holds under `pattern` that the principal may both read and change (newest first per key). */
  async trashed(
    principal: Principal | null,
    pattern: unknown = '**',
    limit?: number,
  ): Promise<TrashedProperty[]> {
    const access = this.properties.access;
    return this.marks.trashed({
      pattern: typeof pattern === 'string' ? pattern : '**',
      scope: access.readScope(principal),
      filter: (key) => access.canRead(principal, key) && access.canWrite(principal, key),
      limit,
    });
  }

  /**
   * Puts the newest binned property of `key` back (attachments and tags with it). FORBIDDEN unless the caller
   * may read and change the key; CONFLICT, nothing changed, when a live property holds the key now.
   */
  async restore(principal: Principal | null, rawKey: unknown): Promise<Property> {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    this.properties.access.assertWrite(principal, key);
    const restored = await this.marks.restore(key, principal?.uuid ?? null);
    this.properties.publish([{ kind: 'created', origin: null, target: restored }], principal);
    return restored;
  }

  /** The newest binned property of `key` the principal may see, if any. */
  private async binnedFor(principal: Principal | null, key: string): Promise<TrashedProperty | undefined> {
    const found = await this.trashed(principal, key, 1);
    return found[0];
  }

  /** Deletes for good what the bin has kept past its time, in batches; how many. */
  async purgeExpired(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const purged = await this.marks.purgeExpired(batch);
      total += purged.length;
      if (purged.length < batch) return total;
    }
  }
}

/** The real product's trash lock tag for a binned property. */
export function trashLockOf(binned: TrashedProperty): LockTag {
  return {
    ts: binned.trashedAt,
    ttl: binned.purgeAt - binned.trashedAt,
    type: 'trash',
    uuid: null,
    name: null,
    details: '',
  };
}

function notFound(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' does not exist.`, { key });
}
