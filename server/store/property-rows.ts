/**
 * A property row and its mapping to the public record, the same on both databases: each store's columns
 * (`sqlite/sqlite-rows.ts`, `postgres/postgres-rows.ts`) alias the table's columns to these names, so a
 * row needs almost no mapping. Also the time-to-live rules and the stored form of a default value.
 */
import { PipeworkError } from '../../shared/errors';
import type { JsonValue, Property } from '../../shared/property';

/** A property row as a database returns it (`defaultValue` still JSON text). */
export interface PropertyRow extends Omit<Property, 'defaultValue'> {
  defaultValue: string | null;
}

/** A row with the internal columns writes need. */
export interface StoredRow extends PropertyRow {
  id: number;
  expiresAt: number | null;
  author: string | null;
  /** The tags as stored (JSON text), for the write guard's lock check. */
  tags: string | null;
}

/** Parses the stored default value (JSON text or null) of a row in place. */
export function withDefaultValue<T extends { defaultValue: unknown }>(row: T): T {
  const text = row.defaultValue as string | null;
  row.defaultValue = text === null ? null : (JSON.parse(text) as JsonValue);
  return row;
}

/** Turns a row into the public record in place (rows are fresh objects from the driver, so this is safe). */
export function toProperty(row: PropertyRow): Property {
  const property = withDefaultValue(row) as unknown as Property & {
    id?: number;
    expiresAt?: number | null;
    author?: string | null;
  };
  if ('id' in property) {
    delete property.id;
    delete property.expiresAt;
    delete property.author;
  }
  return property;
}

/** A copy of a stored row as the public record. */
export function publicCopy(row: StoredRow): Property {
  return toProperty({
    uuid: row.uuid,
    key: row.key,
    value: row.value,
    type: row.type,
    created: row.created,
    updated: row.updated,
    timeToLive: row.timeToLive,
    defaultValue: row.defaultValue,
    version: row.version,
  });
}

/** Longest time to live accepted, in minutes (100 years). */
const MAX_TTL_MINUTES = 100 * 365 * 24 * 60;

/** Normalises a time to live: null or 0 mean none (stored as null); else a whole number of minutes. */
export function normalizeTimeToLive(ttl: unknown): number | null {
  if (ttl === undefined || ttl === null || ttl === 0) return null;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL_MINUTES) {
    throw new PipeworkError('PARAM_INVALID', 'timeToLive must be a whole number of minutes, 0 or more.', {
      parameter: 'timeToLive',
    });
  }
  return ttl;
}

/** When a property created at `created` with `ttl` minutes expires (null: never). */
export function expiryOf(created: number, ttl: number | null): number | null {
  return ttl === null ? null : created + ttl * 60_000;
}

/** JSON text of a default value for storage (null stays SQL NULL). */
export function defaultValueText(value: JsonValue | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
