/**
 * The events a committed property change causes: `property.<kind>` with `{origin, target}` and the acting
 * user. One mapping for both ways events leave a write: published on the in-process bus after commit
 * (SQLite), or written to the PostgreSQL outbox inside the write's transaction.
 */
import type { Property, PropertyChange } from '../../shared/property';

export interface PropertyChangeEvent {
  eventKey: string;
  payload: { origin: Property | null; target: Property | null };
  actor: string | null;
}

export function propertyChangeEvents(
  changes: readonly PropertyChange[],
  actor: string | null | undefined,
): PropertyChangeEvent[] {
  return changes.map((change) => ({
    eventKey: `property.${change.kind}`,
    payload: { origin: change.origin, target: change.target },
    actor: actor ?? null,
  }));
}
