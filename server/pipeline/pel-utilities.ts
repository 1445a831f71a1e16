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
  build: (principal: Principal | null) => PelUtilities;
}

/** `prefetched`: what the run resolved before its steps for URIs expressions cannot wait for. */
export function utilitiesFor(
  services: ServerServices,
  prefetched?: PrefetchedUris,
): (principal: Principal | null) => PelUtilities {
  const lazy: LazyUtility[] = [
    { names: ['user'], build: (principal) => userUtilityFactory(principal, services) },
    { names: ['instance'], build: (principal) => instanceUtilityFactory(principal, services) },
    { names: ['iam'], build: (principal) => ({ iam: createServerIamUtility(principal, services) }) },
    {
      names: ['resolve', 'uri', 'convert', 'content'],
      build: (principal) => uriUtilityFactory(principal, services, prefetched),
    },
  ];
  // `@property` exists only over a store that reads synchronously: decided once, not per run.
  if (propertyUtilityAvailable(services))
    lazy.push({ names: ['property'], build: (principal) => propertyUtilityFactory(principal, services) });
  const descriptors = (principal: Principal | null): PropertyDescriptorMap => {
    const map: PropertyDescriptorMap = {};
    for (const { names, build } of lazy) {
      let made: PelUtilities | null = null;
      for (const name of names) {
        map[name] = {
          enumerable: true,
          configurable: true,
          get: () => (made ??= build(principal))[name],
        };
      }
    }
    return map;
  };
  return (principal) => Object.defineProperties({}, descriptors(principal)) as PelUtilities;
}
