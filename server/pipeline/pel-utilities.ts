/** The `@name` utilities only the server can fill in; PEL falls back to its own isomorphic ones for the rest. */
import type { Principal } from '../../shared/auth';
import type { PelUtilities } from '../../shared/pel';
import { userUtilityFactory } from '../iam/user-utility';
import { propertyUtilityFactory } from '../store/property-utility';
import { instanceUtilityFactory } from './instance-utility';
import type { ServerServices } from '../services';

/** Server-side utilities, each built for the principal the pipeline runs as. */
export type UtilityFactory = (principal: Principal | null, services: ServerServices) => PelUtilities;

/** The server's utilities: `@user`, `@property`, `@instance`. */
const factories: readonly UtilityFactory[] = [
  userUtilityFactory,
  propertyUtilityFactory,
  instanceUtilityFactory,
];

export function utilitiesFor(services: ServerServices): (principal: Principal | null) => PelUtilities {
  return (principal) => {
    const utilities: PelUtilities = {};
    for (const factory of factories) Object.assign(utilities, factory(principal, services));
    return utilities;
  };
}
