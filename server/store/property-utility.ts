/**
 * The server side of the `@property` PEL utility: the shared `value`, `lazy` and `exists` (shared/pel) over a
 * synchronous reader, plus `get(key)` (the whole property) and `values(pattern)`, all as the principal the
 * pipeline runs as. A key the principal may not read answers like a missing one.
 */
import type { Principal } from '../../shared/auth';
import { createPropertyUtility as createSharedPropertyUtility, type PelUtility } from '../../shared/pel';
import {
  compileKeyPattern,
  decodePropertyValue,
  normalizePropertyKey,
  type Property,
  type SyncPropertyReader,
} from '../../shared/property';
import type { PropertyAccess } from './property-access';

/** Most values `@property.values(pattern)` returns. */
export const MAX_UTILITY_VALUES = 10_000;

export function createPropertyUtility(
  reader: SyncPropertyReader,
  access: PropertyAccess,
  principal: Principal | null,
): PelUtility {
  const read = (rawKey: unknown): Property | undefined => {
    const key = normalizePropertyKey(typeof rawKey === 'string' ? rawKey : String(rawKey));
    return access.canRead(principal, key) ? reader.getSync(key) : undefined;
  };
  const shared = createSharedPropertyUtility({
    value: (key) => {
      const property = read(key);
      return property ? decodePropertyValue(property) : undefined;
    },
  });
  return Object.freeze({
    ...shared,
    /** The whole property (uuid, key, value, type, ...); null when missing. */
    get: (key: unknown) => read(key) ?? null,
    /** The values of every readable property matching the pattern, in key order. */
    values: (pattern: unknown) =>
      reader
        .listSync({
          pattern: compileKeyPattern(String(pattern)),
          scope: access.readScope(principal),
          filter: access.readFilter(principal),
          limit: MAX_UTILITY_VALUES,
        })
        .map((p) => decodePropertyValue(p)),
  });
}

/** The factory shape of `registerUtilityFactory` (server/pipeline/pel-utilities.ts): `@property` when the store reads synchronously. */
export function propertyUtilityFactory(
  principal: Principal | null,
  services: { properties: { store: unknown; access: PropertyAccess } },
): { property?: PelUtility } {
  const store = services.properties.store as Partial<SyncPropertyReader>;
  if (typeof store.getSync !== 'function' || typeof store.listSync !== 'function') return {};
  return {
    property: createPropertyUtility(store as SyncPropertyReader, services.properties.access, principal),
  };
}
