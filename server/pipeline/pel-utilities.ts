/** The `@name` utilities only the server can fill in; PEL falls back to its own isomorphic ones for the rest. */
import type { Principal } from '../../shared/auth';
import type { PelUtilities } from '../../shared/pel';
import { createServerIamUtility } from '../iam/iam-utility';
import { userUtilityFactory } from '../iam/user-utility';
import { propertyUtilityAvailable, propertyUtilityFactory } from '../store/property-utility';
import { instanceUtilityFactory } from './instance-utility';
import { type PrefetchedUris, uriUtilityFactory } from '../uri/pel-uri-resolver';
import type { ServerServices } from '../services';

/**
 * Every server utility is built when an expression first names it (most runs name one or none): `@user`,
 * `@property` (where the store reads synchronously), `@instance`, `@iam`, and `@resolve`, `@uri`,
 * `@convert`, `@content` over the principal's `uri:` resolver. The names are the object's own properties,
 * as PEL looks them up, and getters, so nothing is built for a run that never asks.
 */
interface LazyUtility {
  names: readonly string[];
  build: (principal: Principal | null, services: ServerServices, prefetched?: PrefetchedUris) => PelUtilities;
}

/** The table is made once: only the object a run looks its utilities up in is made per run. */
const SERVER_UTILITIES: readonly LazyUtility[] = [
  { names: ['user'], build: (principal, services) => userUtilityFactory(principal, services) },
  { names: ['instance'], build: (principal, services) => instanceUtilityFactory(principal, services) },
  { names: ['iam'], build: (principal, services) => ({ iam: createServerIamUtility(principal, services) }) },
  {
    names: ['resolve', 'uri', 'convert', 'content'],
    build: (principal, services, prefetched) => uriUtilityFactory(principal, services, prefetched),
  },
];
const WITH_PROPERTY: readonly LazyUtility[] = [
  ...SERVER_UTILITIES,
  { names: ['property'], build: (principal, services) => propertyUtilityFactory(principal, services) },
];

/** `prefetched`: what the run resolved before its steps for URIs expressions cannot wait for. */
export function utilitiesFor(
  services: ServerServices,
  prefetched?: PrefetchedUris,
): (principal: Principal | null) => PelUtilities {
  // `@property` exists only over a store that reads synchronously.
  const lazy = propertyUtilityAvailable(services) ? WITH_PROPERTY : SERVER_UTILITIES;
  return (principal) => {
    const utilities = {};
    for (const { names, build } of lazy) {
      let made: PelUtilities | null = null;
      for (const name of names) {
        Object.defineProperty(utilities, name, {
          enumerable: true,
          configurable: true,
          get: () => (made ??= build(principal, services, prefetched))[name],
        });
      }
    }
    return utilities as PelUtilities;
  };
}
