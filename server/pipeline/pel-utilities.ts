/** The `@name` utilities of expressions on the server: the isomorphic ones plus those that need the server. */
import type { Principal } from '../../shared/auth';
import { defaultUtilities, type PelUtilities } from '../../shared/pel';
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
    const utilities: PelUtilities = { ...defaultUtilities };
    for (const factory of factories) Object.assign(utilities, factory(principal, services));
    return utilities;
  };
}
