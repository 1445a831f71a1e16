/**
 * What a write's changes become in the history, written once for both databases: one version per change
 * (a move pairs its deletion and creation, recognised by the uuid, into `moved-out` and `moved-in`), values by
 * their SHA-256 so that an unchanged value is stored once however many versions refer to it.
 */
import { createHash } from 'node:crypto';
import type { HistoryBounds, PropertyChange, PropertyVersionKind } from '../../shared/property';
import { defaultValueText } from './property-rows';

/** One row of `property_history`, as both stores insert it. */
export interface VersionRecord {
  key: string;
  uuid: string;
  kind: PropertyVersionKind;
  version: number | null;
  value: string | null;
  valueHash: string | null;
  type: string | null;
  ttl: number | null;
  defaultValue: string | null;
  actor: string | null;
  at: number;
  otherKey: string | null;
}

/** The columns of `property_history` a version fills, in the order of `versionRowValues`. */
export const VERSION_COLUMNS =
  'key, uuid, kind, version, value_hash, type, ttl, default_value, actor, at, other_key';

/** A version's values for `INSERT INTO property_history (VERSION_COLUMNS)`. */
export function versionRowValues(r: VersionRecord): unknown[] {
  return [
    r.key,
    r.uuid,
    r.kind,
    r.version,
    r.valueHash,
    r.type,
    r.ttl,
    r.defaultValue,
    r.actor,
    r.at,
    r.otherKey,
  ];
}

/** The reference of a value in `property_history_value`. */
export function valueHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The versions recording `changes` (in order), made by `actor` at `at`. */
export function versionRecords(
  changes: readonly PropertyChange[],
  actor: string | null | undefined,
  at: number,
): VersionRecord[] {
  const created = new Map<string, string>();
  const deleted = new Map<string, string>();
  for (const change of changes) {
    if (change.kind === 'created' && change.target) created.set(change.target.uuid, change.target.key);
    if (change.kind === 'deleted' && change.origin) deleted.set(change.origin.uuid, change.origin.key);
  }
  const out: VersionRecord[] = [];
  for (const change of changes) {
    const who = actor ?? null;
    if (change.kind === 'deleted' && change.origin) {
      const movedTo = created.get(change.origin.uuid);
      out.push({
        key: change.origin.key,
        uuid: change.origin.uuid,
        kind: movedTo === undefined ? 'deleted' : 'moved-out',
        version: null,
        value: null,
        valueHash: null,
        type: null,
        ttl: null,
        defaultValue: null,
        actor: who,
        at,
        otherKey: movedTo ?? null,
      });
      continue;
    }
    const target = change.target;
    if (!target) continue;
    const movedFrom = change.kind === 'created' ? deleted.get(target.uuid) : undefined;
    out.push({
      key: target.key,
      uuid: target.uuid,
      kind: movedFrom !== undefined ? 'moved-in' : change.kind === 'created' ? 'created' : 'changed',
      version: target.version,
      value: target.value,
      valueHash: target.value === null ? null : valueHash(target.value),
      type: target.type,
      ttl: target.timeToLive,
      defaultValue: defaultValueText(target.defaultValue),
      actor: who,
      at,
      otherKey: movedFrom ?? null,
    });
  }
  return out;
}

/** The oldest time a version may have under `bounds` (0: no age bound). */
export function oldestKept(bounds: HistoryBounds, now: number): number {
  return bounds.maxDays > 0 ? now - bounds.maxDays * 86_400_000 : 0;
}

/** Whether the bounds keep any history at all. */
export function historyOn(bounds: HistoryBounds): boolean {
  return bounds.maxVersions > 0;
}
