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
  /**
   * Set when this run executes stored code written by someone else (a helper started by `pipeline.start` or
   * `call`, a test run by `test.run`): the authors of that code. The run's roles, groups and tenants are
   * already the intersection with theirs (`boundByAuthor`); folder rules must allow each of them too, and a
   * bound run may not store code (docs/security.md, "Who code runs as").
   */
  limitedBy?: readonly Principal[];
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

/** The permissions both hold: a role of one counts when the other holds it too (directly, by `*`, or as admin). */
function commonRoles(a: Principal, b: Principal): Set<string> {
  const roles = new Set<string>();
  for (const role of a.roles) if (hasPermission(b, role)) roles.add(role);
  for (const role of b.roles) if (hasPermission(a, role)) roles.add(role);
  return roles;
}

function common(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

/**
 * The principal a run of stored code takes when `caller` runs code `author` last stored: the caller's
 * identity (`@user`, the recorded author of its writes), with only the rights both hold, and `author`
 * remembered in `limitedBy` for the folder rules. The caller's own code is the caller unchanged.
 */
export function boundByAuthor(caller: Principal, author: Principal): Principal {
  if (author.uuid === caller.uuid) return caller;
  const limitedBy = [...(caller.limitedBy ?? []), ...(author.limitedBy ?? []), author];
  return Object.freeze({
    ...caller,
    roles: commonRoles(caller, author),
    groups: common(caller.groups, author.groups),
    tenants: common(caller.tenants, author.tenants),
    limitedBy: limitedBy.filter((p, i) => limitedBy.findIndex((q) => q.uuid === p.uuid) === i),
  });
}
