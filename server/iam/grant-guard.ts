/**
 * Keeps IAM commands from handing out more than the caller has: a non-admin may only grant roles (with
 * everything they contain) that the caller holds itself, share only group and tenant memberships (and so
 * their property folders) that it has itself, and may not touch admin accounts.
 */
import { type Principal, ROLE_ADMIN, hasPermission, isAdmin } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { RoleDirectory } from './role-directory';

/** FORBIDDEN unless the caller holds every role the grant would pass on. */
export async function assertMayGrant(
  caller: Principal,
  roles: RoleDirectory,
  roleNames: readonly string[],
): Promise<void> {
  if (isAdmin(caller)) return;
  for (const name of await roles.expand(roleNames)) {
    if (!hasPermission(caller, name)) {
      throw new PipeworkError('FORBIDDEN', `You cannot grant '${name}': you do not hold it yourself.`, {
        role: name,
      });
    }
  }
}

/** FORBIDDEN when a non-admin acts on an admin account (also a disabled one: roles are read from the tables). */
export async function assertMayManageUser(
  caller: Principal,
  roles: RoleDirectory,
  target: { uuid: string; username: string },
): Promise<void> {
  if (isAdmin(caller) || !(await roles.effectiveRoleNames(target.uuid)).includes(ROLE_ADMIN)) return;
  throw new PipeworkError('FORBIDDEN', `Only an admin can change the admin user '${target.username}'.`);
}

/** FORBIDDEN unless a non-admin caller is a member itself of the group or tenant it would let someone into. */
export function assertMayShareMembership(
  caller: Principal,
  kind: 'group' | 'tenant',
  entity: { uuid: string; name: string },
): void {
  if (isAdmin(caller)) return;
  const own = kind === 'group' ? caller.groups : caller.tenants;
  if (!own.has(entity.uuid)) {
    throw new PipeworkError(
      'FORBIDDEN',
      `You cannot add members to the ${kind} '${entity.name}': you are not a member yourself.`,
      { [kind]: entity.name },
    );
  }
}
