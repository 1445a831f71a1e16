/**
 * Property events in the real product's shape, which the corpus apps read: each side (origin, target) also
 * carries `path` (the real product's name for the key), and the event.listen body has a JSON value parsed.
 */
import { isJsonType } from '../../shared/property';

type Side = Record<string, unknown> & { key?: unknown; type?: unknown; value?: unknown };

function isSide(value: unknown): value is Side {
  return typeof value === 'object' && value !== null && typeof (value as Side).key === 'string';
}

/** A property side with `path` added (equal to `key`); anything that is not a property stays as it is. */
export function withPath<T>(side: T): T {
  return isSide(side) ? ({ ...side, path: side.key } as T) : side;
}

/** A property side with `path`, and its value parsed when the type is JSON (text that is not JSON stays text). */
export function asProductProperty<T>(side: T): T {
  if (!isSide(side)) return side;
  const shaped: Side = { ...side, path: side.key };
  if (typeof side.value === 'string' && typeof side.type === 'string' && isJsonType(side.type)) {
    try {
      shaped.value = JSON.parse(side.value) as unknown;
    } catch {
      // not JSON after all: keep the text
    }
  }
  return shaped as T;
}

/** An event payload with `path` on its origin and target, when it has them. */
export function payloadWithPaths(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  const { origin, target } = payload as { origin?: unknown; target?: unknown };
  if (!isSide(origin) && !isSide(target)) return payload;
  return { ...payload, origin: withPath(origin ?? null), target: withPath(target ?? null) };
}
