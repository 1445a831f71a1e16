/**
 * What the store keeps beside a property's value: its tags (a lock is the tag `property.lock`, as the real
 * product keeps it) and the trash bin (docs/property-marks.md).
 */
import type { Property } from './property';
import type { PropertyQuery } from './property-query';

/** A property's tags: name to value (a tag without a value has the empty string). */
export type PropertyTags = Record<string, string>;

/** The tag that holds a property's lock, its value the lock tag as JSON. */
export const LOCK_TAG = 'property.lock';

export const LOCK_TYPES = ['user', 'role', 'group', 'namespace', 'global', 'trash'] as const;
export type LockType = (typeof LOCK_TYPES)[number];

/** The lock tag, in the real product's shape. */
export interface LockTag {
  /** Epoch milliseconds the lock was created. */
  ts: number;
  /** Milliseconds after `ts` the lock ends by itself; null: until removed. */
  ttl: number | null;
  type: LockType;
  /** The user (type user), or the group or tenant resolved from `name`. */
  uuid: string | null;
  /** The username, role, group or namespace the lock is exclusive to. */
  name: string | null;
  details: string;
}

/** A property in the trash bin: as it was, with when, by whom and until when it is kept. */
export interface TrashedProperty {
  property: Property;
  tags: PropertyTags;
  /** Epoch milliseconds. */
  trashedAt: number;
  trashedBy: string | null;
  /** Epoch milliseconds after which the cleanup job deletes it for good. */
  purgeAt: number;
}

export interface TrashOptions {
  /** How long the bin keeps the properties, counted from the moment they are binned. */
  ttlMillis: number;
  actor?: string | null;
}

/** Tags and the trash bin, kept by the same store as the properties (SQLite or PostgreSQL). */
export interface PropertyMarks {
  /** The tags of the live property at `key`; undefined when there is none. */
  tagsOf(key: string): Promise<PropertyTags | undefined>;
  /** Replaces the tags of the live property at `key`; false when there is none. */
  setTags(key: string, tags: PropertyTags): Promise<boolean>;
  /** The tags of those of `keys` that are live and have any. */
  tagsOfKeys(keys: readonly string[]): Promise<Map<string, PropertyTags>>;
  /**
   * Moves the live properties at `keys` into the bin, with their attachments and tags, in one transaction (all
   * or nothing). Their keys are free at once; PROPERTY_NOT_FOUND when one of them is not there.
   */
  trash(keys: readonly string[], options: TrashOptions): Promise<TrashedProperty[]>;
  /** What the bin holds under keys matching the query, newest first per key, at most `query.limit`. */
  trashed(query: PropertyQuery): Promise<TrashedProperty[]>;
  /**
   * Puts the newest binned property of `key` back where it was, with its attachments and tags.
   * PROPERTY_NOT_FOUND when the bin has none; CONFLICT (nothing changed) when a live property holds the key.
   */
  restore(key: string, actor?: string | null): Promise<Property>;
  /** Deletes for good up to `limit` binned properties whose time is up; returns them. */
  purgeExpired(limit?: number): Promise<TrashedProperty[]>;
}
