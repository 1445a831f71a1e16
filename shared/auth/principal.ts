/** Who a request or pipeline runs as: the identity the server resolved, with its effective roles. */

export interface Principal {
  uuid: string;
  username: string;
  /** Effective role names, composites already expanded (e.g. `ROLE_ADMIN`, `CAN_PIPE_property.*`). */
  roles: ReadonlySet<string>;
  /** Group uuids the user is a member of. */
  groups: ReadonlySet<string>;
  /** Tenant uuids the user belongs to. */
  tenants: ReadonlySet<string>;
  /** Set when a RunAs switched identity: the user who actually authenticated. */
  actingUsername?: string;
  displayName?: string;
  email?: string;
}

export const ROLE_ADMIN = 'ROLE_ADMIN';
export const ROLE_DEVELOPER = 'ROLE_DEVELOPER';
export const ROLE_USER = 'ROLE_USER';

export function isAdmin(principal: Principal): boolean {
  return principal.roles.has(ROLE_ADMIN);
}

/**
 * Whether the principal holds a permission role, directly or through a trailing-`*` grant
 * (`CAN_PIPE_property.*` grants `CAN_PIPE_property.list`). Admins hold every permission.
 */
export function hasPermission(principal: Principal, permission: string): boolean {
  if (isAdmin(principal) || principal.roles.has(permission)) return true;
  for (const role of principal.roles) {
    if (role.endsWith('*') && permission.startsWith(role.slice(0, -1))) return true;
  }
  return false;
}
