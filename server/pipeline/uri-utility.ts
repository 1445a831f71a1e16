/**
 * `uri:` references for PEL (`@resolve.uri`, `@uri.resolve`, `@convert.lazy`, `@content.newContent`), resolved as
 * the principal: `uri:property:` through the same reads as `@property`, `uri:user:` through the same lookups as
 * `@iam` (the caller themself always), and `uri:drive:` through the resolver the drive registers here.
 */
import type { Principal } from '../../shared/auth';
import type { PelUtilities } from '../../shared/pel';
import { type PelUriResolver, createUriUtilities } from '../../shared/pel/utilities';
import { decodePropertyValue, type SyncPropertyReader } from '../../shared/property';
import { iamLookupsFor } from '../iam/iam-utility';
import { driveUriResolver } from '../drive/drive-uri-resolver';
import type { ServerServices } from '../services';
import { propertyReaderFor } from '../store/property-utility';

/** Resolves `uri:drive:<path>` for a principal: the file's content, or undefined when missing or not theirs. */
export type DriveUriResolverFactory = (
  principal: Principal | null,
  services: ServerServices,
) => (path: string) => unknown;

let driveResolver: DriveUriResolverFactory | null = driveUriResolver;

/** The drive plugs its `uri:drive:` resolver in here, once at start-up; until then `uri:drive:` is refused. */
export function registerDriveUriResolver(factory: DriveUriResolverFactory | null): void {
  driveResolver = factory;
}

/** The caller as a user map, as `@iam` shows users. */
function currentUser(principal: Principal): Record<string, unknown> {
  return {
    id: principal.uuid,
    username: principal.username,
    email: principal.email ?? null,
    displayName: principal.displayName ?? null,
  };
}

export function uriResolverFor(principal: Principal | null, services: ServerServices): PelUriResolver {
  const store = services.properties.store as Partial<SyncPropertyReader>;
  const readProperty =
    typeof store.getSync === 'function'
      ? propertyReaderFor(store as SyncPropertyReader, services.properties.access, principal)
      : null;
  const iam = iamLookupsFor(principal, services);
  return {
    property: readProperty
      ? (key) => {
          const property = readProperty(key);
          return property ? decodePropertyValue(property) : undefined;
        }
      : undefined,
    user: (by, value) => {
      if (by === 'current') return principal ? currentUser(principal) : undefined;
      if (
        principal &&
        ((by === 'username' && value === principal.username) || (by === 'uuid' && value === principal.uuid))
      )
        return currentUser(principal);
      return by === 'uuid'
        ? iam.userByUuid(value)
        : by === 'email'
          ? iam.userByEmail(value)
          : iam.userByUsername(value);
    },
    drive: driveResolver ? driveResolver(principal, services) : undefined,
  };
}

/** `@resolve`, `@uri`, `@convert` and `@content` over the principal's resolver. */
export function uriUtilityFactory(principal: Principal | null, services: ServerServices): PelUtilities {
  return createUriUtilities(uriResolverFor(principal, services));
}
