/** The keys a property event is about: the origin's and the target's (a move has both). */

export interface PropertyEvent {
  eventKey: string;
  payload: { origin: { key: string } | null; target: { key: string } | null };
  timestamp: number;
}

export function keysOfPropertyEvent(event: PropertyEvent): string[] {
  const keys = [event.payload?.origin?.key, event.payload?.target?.key];
  return [...new Set(keys.filter((k): k is string => typeof k === 'string'))];
}
