/**
 * The server side of the `@property` PEL utility: the shared spec (shared/pel) over the synchronous store, as
 * the principal the pipeline runs as, with the same two checks the property commands make: the command's
 * permission (`CAN_PIPE_property.value.get` for value/lazy/exists' reads, `property.get`, `property.list`,
 * `property.put` for `updateValue`) and the folder rules. A key the principal may not read answers like a
 * missing one, never with its value; a write it may not make fails as `property.put` would.
 */
import { type Principal, hasPermission } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
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
import type { PropertyService } from './property-service';

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

/**
 * The runner's refusal of a step the principal may not run (server/pipeline/authorize-command.ts), for a
 * command's work done from an expression.
 */
function assertMayRun(principal: Principal | null, command: string): void {
  if (!principal)
    throw new PipeworkError('UNAUTHENTICATED', `Command '${command}' needs an authenticated caller.`);
  const permission = `CAN_PIPE_${command}`;
  if (!hasPermission(principal, permission)) {
    throw new PipeworkError('FORBIDDEN', `You lack the permission ${permission} to run '${command}'.`, {
      commandName: command,
      permission,
    });
  }
}

/**
 * `@property` as the principal. With a `writer` (the property service over a synchronous store),
 * `updateValue(key, value)` is `property.put` with that key and value: the command's permission, then put's
 * own rules (folder rights, key, type and size rules, object schemas, the version, `property.changed`); it
 * answers the value as stored, read back as `value(key)` would.
 */
export function createPropertyUtility(
  reader: SyncPropertyReader,
  access: PropertyAccess,
  principal: Principal | null,
  writer?: Pick<PropertyService, 'putSync'>,
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
    updateValue: (key, value) => {
      if (!writer) throw utilityError('updateValue: this property store cannot write inside an expression');
      assertMayRun(principal, 'property.put');
      return decodePropertyValue(writer.putSync(principal, { key, value }));
    },
  });
}

/** Whether `@property` exists: only over a store that reads synchronously (SQLite, or PostgreSQL's bridge). */
export function propertyUtilityAvailable(services: { properties: PropertyService }): boolean {
  const store = services.properties.store as Partial<SyncPropertyReader>;
  return typeof store.getSync === 'function' && typeof store.listSync === 'function';
}

/** The factory shape of `registerUtilityFactory` (server/pipeline/pel-utilities.ts): `@property` when the store reads synchronously. */
export function propertyUtilityFactory(
  principal: Principal | null,
  services: { properties: PropertyService },
): { property?: PelUtility } {
  const { properties } = services;
  if (!propertyUtilityAvailable(services)) return {};
  const store = properties.store as unknown as SyncPropertyReader;
  const writer = properties.canWriteSync ? properties : undefined;
  return {
    property: createPropertyUtility(store, properties.access, principal, writer),
  };
}
