/** The `@user` PEL utility for a principal: PEL's own `@user` (shared/pel), filled in with what IAM knows. */
import { type Principal, hasPermission, isAdmin } from '../../shared/auth';
import { createUserUtility as createPelUserUtility, type PelUtility } from '../../shared/pel';

/** Builds `@user` for a principal; every function answers null (or false, or []) when nobody is signed in. */
export function createUserUtility(principal: Principal | null): PelUtility {
  if (!principal) return createPelUserUtility(null);
  return createPelUserUtility({
    username: principal.username,
    uuid: principal.uuid,
    displayName: principal.displayName,
    email: principal.email,
    roles: [...principal.roles].sort(),
    groups: [...principal.groups],
    tenants: [...principal.tenants],
    actingUsername: principal.actingUsername,
    isAdmin: isAdmin(principal),
    hasPermission: (permission) => hasPermission(principal, permission),
  });
}

/** The factory shape the server's utility list uses (server/pipeline/pel-utilities.ts). */
export function userUtilityFactory(principal: Principal | null): { user: PelUtility } {
  return { user: createUserUtility(principal) };
}
