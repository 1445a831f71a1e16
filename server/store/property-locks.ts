/**
 * Property locks (docs/property-marks.md): a lock is the tag `property.lock` holding the lock tag as JSON, the
 * real product's shape. Every write path asks `PropertyWriteGuard` (through `PropertyService.assertWritable` and
 * the attachment service), the one place that joins the folder rules and the lock.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  LOCK_TAG,
  LOCK_TYPES,
  type LockTag,
  type LockType,
  type PropertyMarks,
  type PropertyTags,
} from '../../shared/property';
import type { PropertyAccess } from './property-access';

/** The role that alters a property whatever lock it carries (the real product's name). */
export const ROLE_SYSTEM = 'ROLE_SYSTEM';

/** Longest `details` a lock keeps, in characters. */
export const MAX_LOCK_DETAILS = 1000;

/** The lock a property's tags hold, unless there is none or its time to live is over at `now`. */
export function lockOf(tags: PropertyTags | undefined, now: number): LockTag | undefined {
  const text = tags?.[LOCK_TAG];
  if (!text) return undefined;
  let parsed: Partial<LockTag>;
  try {
    parsed = JSON.parse(text) as Partial<LockTag>;
  } catch {
    // A tag someone wrote by hand that is no lock tag: the safest reading is a global lock.
    return { ts: 0, ttl: null, type: 'global', uuid: null, name: null, details: '' };
  }
  const type = (LOCK_TYPES as readonly string[]).includes(String(parsed.type))
    ? (parsed.type as LockType)
    : 'global';
  const lock: LockTag = {
    ts: typeof parsed.ts === 'number' ? parsed.ts : 0,
    ttl: typeof parsed.ttl === 'number' && parsed.ttl > 0 ? parsed.ttl : null,
    type,
    uuid: typeof parsed.uuid === 'string' ? parsed.uuid : null,
    name: typeof parsed.name === 'string' ? parsed.name : null,
    details: typeof parsed.details === 'string' ? parsed.details : '',
  };
  if (lock.ttl !== null && lock.ts + lock.ttl <= now) return undefined;
  return lock;
}

/**
 * True when `principal` may alter a property despite `lock`: the user, role, group or namespace it is exclusive
 * to, or ROLE_SYSTEM. A null principal is the server's own work (the cleanup job), which locks never stop.
 */
export function lockAllows(principal: Principal | null, lock: LockTag, realm: string | undefined): boolean {
  if (principal === null || principal.roles.has(ROLE_SYSTEM)) return true;
  switch (lock.type) {
    case 'user':
      return lock.uuid !== null && principal.uuid === lock.uuid;
    case 'role':
      return lock.name !== null && principal.roles.has(lock.name);
    case 'group':
      return lock.uuid !== null && principal.groups.has(lock.uuid);
    case 'namespace':
      // One installation is one namespace (the realm): a lock to it lets every user of it in.
      return lock.name === null || lock.name === realm;
    case 'global':
    case 'trash':
      return false;
  }
}

/** Who a lock lets change the property, in words, for error messages. */
export function lockHolderText(lock: LockTag): string {
  switch (lock.type) {
    case 'user':
      return `user '${lock.name ?? lock.uuid ?? '?'}'`;
    case 'role':
      return `holders of role '${lock.name ?? '?'}'`;
    case 'group':
      return `members of group '${lock.name ?? lock.uuid ?? '?'}'`;
    case 'namespace':
      return `users of namespace '${lock.name ?? '?'}'`;
    case 'global':
    case 'trash':
      return 'ROLE_SYSTEM';
  }
}

/** CONFLICT naming who holds the lock on `key` (the lock tag in the details). */
export function lockedError(key: string, lock: LockTag): PipeworkError {
  const kind = lock.type === 'global' ? 'a global lock' : `a ${lock.type} lock`;
  return new PipeworkError(
    'CONFLICT',
    `Property '${key}' is locked (${kind}): only ${lockHolderText(lock)} may change it. Remove the lock first.`,
    { key, lock },
  );
}

/** The folder rules and the lock, for every write of a property or its attachments. */
export class PropertyWriteGuard {
  constructor(
    private readonly access: PropertyAccess,
    private readonly marks: PropertyMarks,
    private readonly clock: () => number,
    private readonly realm: () => string | undefined,
  ) {}

  /** FORBIDDEN where the folder rules deny writing `key`; CONFLICT (naming the holder) where a lock does. */
  async assertWritable(principal: Principal | null, key: string): Promise<void> {
    this.access.assertWrite(principal, key);
    this.assertLockAllows(principal, key, await this.marks.tagsOf(key));
  }

  /** The lock part, on tags already read (a write rule that runs synchronously reads them itself). */
  assertLockAllows(principal: Principal | null, key: string, tags: PropertyTags | undefined): void {
    const lock = lockOf(tags, this.clock());
    if (lock && !this.allows(principal, lock)) throw lockedError(key, lock);
  }

  /** Whether the principal is one the lock is exclusive to (or ROLE_SYSTEM). */
  allows(principal: Principal | null, lock: LockTag): boolean {
    return lockAllows(principal, lock, this.realm());
  }

  /** A check for many keys at once (a pattern delete): the tags of all are read in one go. */
  async lockCheck(principal: Principal | null, keys: readonly string[]): Promise<(key: string) => void> {
    const tags = await this.marks.tagsOfKeys(keys);
    return (key) => this.assertLockAllows(principal, key, tags.get(key));
  }
}
