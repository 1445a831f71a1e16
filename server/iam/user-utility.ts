/** The `@user` PEL utility for a principal: PEL's own `@user` (shared/pel), filled in with what IAM knows. */
import { type Principal, hasPermission, isAdmin } from '../../shared/auth';
import { createUserUtility as createPelUserUtility, type PelUtility } from '../../shared/pel';
import type { ServerServices } from '../services';
import type { UserRow } from './records';

/**
 * Builds `@user` for a principal; every function answers null (or false, or []) when nobody is signed in.
 * First and last name come from the user's row, read only when an expression asks for them.
 */
export function createUserUtility(
  principal: Principal | null,
  userRow?: (uuid: string) => UserRow | undefined,
): PelUtility {
  if (!principal) return createPelUserUtility(null);
  let row: UserRow | undefined | null = null;
  const own = (): UserRow | undefined => (row === null ? (row = userRow?.(principal.uuid)) : row);
  return createPelUserUtility({
    username: principal.username,
    uuid: principal.uuid,
    displayName: principal.displayName,
    email: principal.email,
    get firstName() {
      return own()?.first_name ?? null;
    },
    get lastName() {
      return own()?.last_name ?? null;
    },
    roles: [...principal.roles].sort(),
    groups: [...principal.groups],
    tenants: [...principal.tenants],
    actingUsername: principal.actingUsername,
    isAdmin: isAdmin(principal),
    hasPermission: (permission) => hasPermission(principal, permission),
  });
}

/** The factory shape the server's utility list uses (server/pipeline/pel-utilities.ts). */
export function userUtilityFactory(
  principal: Principal | null,
  services?: Pick<ServerServices, 'iam'>,
): { user: PelUtility } {
  return { user: createUserUtility(principal, services && ((uuid) => services.iam.usersSync.byUuid(uuid))) };
}
