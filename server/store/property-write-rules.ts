/**
 * The SQL-independent rules of property writes, shared by the SQLite and PostgreSQL stores: the columns a
 * create or a patch writes (time to live counted from creation, the author: whoever wrote last, a move or copy included), when a
 * stored row has expired, and the errors of the contract.
 */
import { PipeworkError } from '../../shared/errors';
import { DEFAULT_PROPERTY_TYPE, type NewProperty, type PropertyPatch } from '../../shared/property';
import { defaultValueText, expiryOf, normalizeTimeToLive, type StoredRow } from './property-rows';

/** The columns a create or an update writes. */
export interface WrittenColumns {
  value: string | null;
  type: string;
  ttl: number | null;
  expiresAt: number | null;
  defaultValue: string | null;
  author: string | null;
}

export function createdColumns(input: NewProperty, now: number, actor?: string | null): WrittenColumns {
  const ttl = normalizeTimeToLive(input.timeToLive);
  return {
    value: input.value ?? null,
    type: input.type ?? DEFAULT_PROPERTY_TYPE,
    ttl,
    expiresAt: expiryOf(now, ttl),
    defaultValue: defaultValueText(input.defaultValue),
    author: actor ?? null,
  };
}

export function patchedColumns(row: StoredRow, patch: PropertyPatch, actor?: string | null): WrittenColumns {
  const ttl = patch.timeToLive !== undefined ? normalizeTimeToLive(patch.timeToLive) : row.timeToLive;
  return {
    value: patch.value !== undefined ? patch.value : row.value,
    type: patch.type ?? row.type,
    ttl,
    expiresAt: expiryOf(row.created, ttl),
    defaultValue: patch.defaultValue !== undefined ? defaultValueText(patch.defaultValue) : row.defaultValue,
    // The author is who changed the property last, whatever they changed: stored code runs as its author,
    // so a change by anyone else (even of the type alone) re-binds it to them (docs/security.md).
    author: actor ?? null,
  };
}

/** What `save` with `ifExists: 'update'` sets: the given fields; the time to live stays as it was. */
export function savePatch(input: NewProperty): PropertyPatch {
  return { value: input.value, type: input.type, defaultValue: input.defaultValue };
}

export function hasExpired(row: { expiresAt: number | null }, now: number): boolean {
  return row.expiresAt !== null && row.expiresAt <= now;
}

export function propertyNotFound(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' does not exist.`, { key });
}

export function propertyExists(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_EXISTS', `Property '${key}' already exists.`, { key });
}

export function versionConflict(key: string, expectedVersion: number, actualVersion: number): PipeworkError {
  return new PipeworkError(
    'CONFLICT',
    `Property '${key}' is at version ${actualVersion}, not ${expectedVersion}.`,
    {
      key,
      expectedVersion,
      actualVersion,
    },
  );
}

export function ontoItself(action: 'copied' | 'moved'): PipeworkError {
  return new PipeworkError('PARAM_INVALID', `A property cannot be ${action} onto itself.`, {
    parameter: 'to',
  });
}
