/**
 * Property history (docs/history.md): every change of a property kept as a version with who and when,
 * bounded per key by count and age. The store writes a version in the same transaction as the change; this
 * is the part of the store contract that reads them back.
 */
import type { JsonValue } from './property';

/** What a version records: the property as it became, or its deletion or move. */
export type PropertyVersionKind = 'created' | 'changed' | 'deleted' | 'moved-in' | 'moved-out';

/** One kept version of the property at `key`. */
export interface PropertyVersion {
  /** The version's id: unique in the store and increasing with time (what `property.history.get` takes). */
  id: number;
  key: string;
  /** The property's uuid (a move keeps it). */
  uuid: string;
  kind: PropertyVersionKind;
  /** The property's own version counter after the change; null for a deletion or a move away. */
  version: number | null;
  /** The value after the change; null for a deletion or a move away (and when the value was null). */
  value: string | null;
  type: string | null;
  timeToLive: number | null;
  defaultValue: JsonValue;
  /** Uuid of the user who made the change (null: the system, e.g. expiry). */
  actor: string | null;
  /** Epoch milliseconds of the change. */
  at: number;
  /** For `moved-in`, the key it came from; for `moved-out`, the key it went to. */
  otherKey: string | null;
}

/** A version as a listing shows it: everything but the value (which may be large), and its length. */
export type PropertyVersionSummary = Omit<PropertyVersion, 'value'> & { valueLength: number | null };

/** How much history is kept per key: at most `maxVersions` versions none older than `maxDays` days. */
export interface HistoryBounds {
  /** 0 turns history off. */
  maxVersions: number;
  /** 0 keeps versions whatever their age. */
  maxDays: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = { maxVersions: 50, maxDays: 90 };

export interface HistoryListOptions {
  /** Only versions with an id below this one (paging back in time). */
  before?: number;
  /** At most this many, newest first. */
  limit?: number;
}

/** Reading the kept versions (writing them is the store's own business, inside each write's transaction). */
export interface PropertyHistoryReader {
  /** Versions of `key`, newest first. */
  list(key: string, options?: HistoryListOptions): Promise<PropertyVersionSummary[]>;
  /** One version of `key` with its value, or undefined. */
  get(key: string, id: number): Promise<PropertyVersion | undefined>;
  /** Drops versions older than the age bound in every key (the per-key count is kept on each write). */
  prune(): Promise<number>;
}
