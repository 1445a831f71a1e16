/** The `@name` utilities only the server can fill in; PEL falls back to its own isomorphic ones for the rest. */
import type { Principal } from '../../shared/auth';
import type { PelUtilities } from '../../shared/pel';
import { createServerIamUtility } from '../iam/iam-utility';
import { userUtilityFactory } from '../iam/user-utility';
import { propertyUtilityFactory } from '../store/property-utility';
import { instanceUtilityFactory } from './instance-utility';
import { type PrefetchedUris, uriUtilityFactory } from '../uri/pel-uri-resolver';
import type { ServerServices } from '../services';

/** Server-side utilities, each built for the principal the pipeline runs as. */
export type UtilityFactory = (principal: Principal | null, services: ServerServices) => PelUtilities;

/** The server's utilities built for every run: `@user`, `@property`, `@instance`. */
const factories: readonly UtilityFactory[] = [
  userUtilityFactory,
  propertyUtilityFactory,
  instanceUtilityFactory,
];

/**
 * Built on first use only (most expressions call none of them): `@iam`, and `@resolve`, `@uri`, `@convert`,
 * `@content` over the principal's `uri:` resolver.
 */
const lazyFactories: readonly { names: readonly string[]; build: UtilityFactory }[] = [
  { names: ['iam'], build: (principal, services) => ({ iam: createServerIamUtility(principal, services) }) },
];

/** `prefetched`: what the run resolved before its steps for URIs expressions cannot wait for. */
export function utilitiesFor(
  services: ServerServices,
  prefetched?: PrefetchedUris,
): (principal: Principal | null) => PelUtilities {
  const all = [
    ...lazyFactories,
    {
      names: ['resolve', 'uri', 'convert', 'content'],
      build: (principal: Principal | null) => uriUtilityFactory(principal, services, prefetched),
    },
  ];
  return (principal) => {
    const utilities: PelUtilities = {};
    for (const factory of factories) Object.assign(utilities, factory(principal, services));
    for (const { names, build } of all) {
      let made: PelUtilities | null = null;
      for (const name of names)
        Object.defineProperty(utilities, name, {
          enumerable: true,
          configurable: true,
          get: () => (made ??= build(principal, services))[name],
        });
    }
    return utilities;
  };
}
