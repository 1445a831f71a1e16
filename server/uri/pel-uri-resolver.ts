/**
 * URIs in PEL (`@resolve.uri`, `@uri.resolve`, `@convert.lazy`, `@content.newContent`), resolved as the
 * principal: `uri:property:` through the same folder rules as `property.get` (a property the caller may not
 * read is FORBIDDEN, never its content), `uri:user:` through the same lookups as `@iam` (the caller themself
 * always), `uri:drive:` through the resolver the drive registers here, and `uri:pipeline:` / http(s) addresses
 * from what the server fetched before the step (`prefetch-uris.ts`: PEL cannot wait for a run or a network).
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { PelUtilities } from '../../shared/pel';
import { type PelUriResolver, createUriUtilities } from '../../shared/pel/utilities';
import { decodePropertyValue, normalizePropertyKey, type SyncPropertyReader } from '../../shared/property';
import { iamLookupsFor } from '../iam/iam-utility';
import { driveUriResolver } from '../drive/drive-uri-resolver';
import type { ServerServices } from '../services';
import { propertyAsMap } from './property-as-map';

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

/** What the server resolved before the step for URIs PEL cannot wait for: `pipeline:<key>`, `http:<url>`. */
export type PrefetchedUris = ReadonlyMap<string, unknown>;

/** The caller as a user map, as `@iam` shows users. */
function currentUser(principal: Principal): Record<string, unknown> {
  return {
    id: principal.uuid,
    username: principal.username,
    email: principal.email ?? null,
    displayName: principal.displayName ?? null,
  };
}

function notPrefetched(form: string): never {
  throw new PipeworkError(
    'PARAM_INVALID',
    `${form} in an expression is resolved before its step only when the URI is written as text ` +
      `(@resolve.uri('${form}...')); use the resolve command for a computed one.`,
  );
}

export function uriResolverFor(
  principal: Principal | null,
  services: ServerServices,
  prefetched?: PrefetchedUris,
): PelUriResolver {
  const store = services.properties.store as Partial<SyncPropertyReader>;
  const { access } = services.properties;
  const read =
    typeof store.getSync === 'function'
      ? (rawKey: string) => {
          const key = normalizePropertyKey(rawKey);
          access.assertRead(principal, key);
          return (store as SyncPropertyReader).getSync(key);
        }
      : null;
  const iam = iamLookupsFor(principal, services);
  return {
    property: read
      ? (key) => {
          const property = read(key);
          return property ? decodePropertyValue(property) : undefined;
        }
      : undefined,
    propertyObject: read
      ? (key) => {
          const property = read(key);
          return property ? propertyAsMap(property, []) : undefined;
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
    pipeline: (key) =>
      prefetched?.has(`pipeline:${key}`)
        ? prefetched.get(`pipeline:${key}`)
        : notPrefetched('$uri:pipeline:'),
    http: (url) =>
      prefetched?.has(`http:${url}`) ? prefetched.get(`http:${url}`) : notPrefetched('http(s)://'),
  };
}

/** `@resolve`, `@uri`, `@convert` and `@content` over the principal's resolver. */
export function uriUtilityFactory(
  principal: Principal | null,
  services: ServerServices,
  prefetched?: PrefetchedUris,
): PelUtilities {
  return createUriUtilities(uriResolverFor(principal, services, prefetched));
}
