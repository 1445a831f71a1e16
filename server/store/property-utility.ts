/**
 * The server side of the `@property` PEL utility: the shared spec (shared/pel) over the synchronous store, as
 * the principal the pipeline runs as, with the same two checks the property commands make: the command's
 * permission (`CAN_PIPE_property.value.get` for value/lazy/exists' reads, `property.get`, `property.list`)
 * and the folder rules. A key the principal may not read answers like a missing one, never with its value.
 */
import { type Principal, hasPermission } from '../../shared/auth';
import {
  createPropertyUtility as createSharedPropertyUtility,
  type PelUtility,
  utilityError,
} from '../../shared/pel';
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

/** True when the principal may run the command (the runner's rule for steps). */
function mayRun(principal: Principal | null, command: string): boolean {
  return principal !== null && hasPermission(principal, `CAN_PIPE_${command}`);
}

/** Reads a property as the principal would through `command`: undefined when missing or not theirs to read. */
export function propertyReaderFor(
  reader: SyncPropertyReader,
  access: PropertyAccess,
  principal: Principal | null,
): (rawKey: unknown, command?: string) => Property | undefined {
  return (rawKey, command = 'property.value.get') => {
    const key = normalizePropertyKey(typeof rawKey === 'string' ? rawKey : String(rawKey));
    if (!mayRun(principal, command) || !access.canRead(principal, key)) return undefined;
    return reader.getSync(key);
  };
}

export function createPropertyUtility(
  reader: SyncPropertyReader,
  access: PropertyAccess,
  principal: Principal | null,
): PelUtility {
  const read = propertyReaderFor(reader, access, principal);
  return createSharedPropertyUtility({
    value: (key) => {
      const property = read(key);
      return property ? decodePropertyValue(property) : undefined;
    },
    /** The whole property (uuid, key, value, type, ...). */
    get: (key) => read(key, 'property.get'),
    /** The values of every readable property matching the pattern, in key order. */
    values: (rawPattern) => {
      const pattern = compileKeyPattern(String(rawPattern));
      if (!mayRun(principal, 'property.list')) return [];
      return reader
        .listSync({
          pattern,
          scope: access.readScope(principal),
          filter: access.readFilter(principal),
          limit: MAX_UTILITY_VALUES,
        })
        .map((p) => decodePropertyValue(p));
    },
    updateValue: (key) => {
      // The write path (schemas, events) is asynchronous and expressions are not: the check runs, the
      // write is the property.put command's.
      const normalized = normalizePropertyKey(key);
      if (!mayRun(principal, 'property.put') || !access.canWrite(principal, normalized))
        throw utilityError(`updateValue: you may not write '${normalized}'`);
      throw utilityError(
        `updateValue: properties are written by the property.put command, not inside an expression ('${normalized}')`,
      );
    },
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
