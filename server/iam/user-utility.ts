/** The `@user` PEL utility: facts about the user a pipeline runs as, as plain functions (no object leaks out). */
import { type Principal, hasPermission, isAdmin } from '../../shared/auth';

export type UserUtility = Record<string, (...args: unknown[]) => unknown>;

/** Builds `@user` for a principal; every function answers null (or false, or []) when nobody is signed in. */
export function createUserUtility(principal: Principal | null): UserUtility {
  const p = principal;
  const displayName = () => p?.displayName ?? p?.username ?? null;
  return Object.freeze({
    username: () => p?.username ?? null,
    uuid: () => p?.uuid ?? null,
    displayName,
    email: () => p?.email ?? null,
    /** `Display Name <email>`, usable as a mail recipient; the display name alone without an email. */
    emailAndDisplayName: () => (p ? (p.email ? `${displayName()} <${p.email}>` : displayName()) : null),
    hasRole: (name: unknown) => (p ? p.roles.has(String(name)) : false),
    /** Whether the user holds a permission, counting `*` grants and admin. */
    hasPermission: (name: unknown) => (p ? hasPermission(p, String(name)) : false),
    isAdmin: () => (p ? isAdmin(p) : false),
    roles: () => (p ? [...p.roles].sort() : []),
    groups: () => (p ? [...p.groups] : []),
    tenants: () => (p ? [...p.tenants] : []),
    /** Who actually signed in, when a RunAs switched identity; else the user itself. */
    actingUsername: () => p?.actingUsername ?? p?.username ?? null,
    isAuthenticated: () => p !== null,
  });
}

/** The factory shape of `registerUtilityFactory` (server/pipeline/pel-utilities.ts). */
export function userUtilityFactory(principal: Principal | null): { user: UserUtility } {
  return { user: createUserUtility(principal) };
}
