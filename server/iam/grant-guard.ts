/**
 * Keeps IAM commands from handing out more than the caller has: a non-admin may only grant roles (with
 * everything they contain) that the caller holds itself, and may not touch admin accounts.
 */
import { type Principal, hasPermission, isAdmin } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { RoleDirectory } from './role-directory';

/** FORBIDDEN unless the caller holds every role the grant would pass on. */
export function assertMayGrant(caller: Principal, roles: RoleDirectory, roleNames: readonly string[]): void {
  if (isAdmin(caller)) return;
  for (const name of roles.expand(roleNames)) {
    if (!hasPermission(caller, name)) {
      throw new PipeworkError('FORBIDDEN', `You cannot grant '${name}': you do not hold it yourself.`, {
        role: name,
      });
    }
  }
}

/** FORBIDDEN when a non-admin acts on an admin account. */
export function assertMayManageUser(caller: Principal, target: Principal | null): void {
  if (target && isAdmin(target) && !isAdmin(caller)) {
    throw new PipeworkError('FORBIDDEN', `Only an admin can change the admin user '${target.username}'.`);
  }
}
