/** `@user`: the current user, through an interface the server fills in (PEL itself knows no users). */
import { isMapLike, readOwn } from '../safety';
import type { PelUtility } from '../types';
import { type UtilitySpec, listOrText, text, toUtility } from './support';

/** What the server tells PEL about the user a pipeline runs as. */
export interface PelUserInfo {
  username: string;
  displayName?: string | null;
  email?: string | null;
  uuid?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** A language tag such as 'en' or 'de-DE'. */
  locale?: string | null;
  /** An IANA time zone such as 'Europe/Berlin'. */
  zone?: string | null;
  roles?: readonly string[];
  groups?: readonly string[];
  tenants?: readonly string[];
  /** Who actually signed in, when a RunAs switched identity. */
  actingUsername?: string | null;
  isAdmin?: boolean;
  /** The server's permission rule (`*` grants, admins); without it, a permission is a role held. */
  hasPermission?: (permission: string) => boolean;
}

/** A field of a user map (as @iam returns), or null. */
function field(user: object, key: string): string | null {
  const v = readOwn(user, key);
  return typeof v === 'string' && v !== '' ? v : null;
}

/** The display name of a user map: its displayName, else first and last name, else the username. */
function displayNameOf(user: object): string | null {
  const names = [field(user, 'firstName'), field(user, 'lastName')].filter((s) => s !== null);
  return field(user, 'displayName') ?? (names.length > 0 ? names.join(' ') : field(user, 'username'));
}

function emailAndDisplayName(name: string | null, email: string | null): string | null {
  return email ? `${name ?? email} <${email}>` : name;
}

/** The user as a map, so the `(object)` overloads and the no-argument ones share one rule. */
function asMap(user: PelUserInfo | null): object | null {
  if (!user) return null;
  return {
    username: user.username,
    displayName: user.displayName ?? null,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    email: user.email ?? null,
  };
}

/** The user a call is about: the object given (a user map), or the current one. */
function subject(current: object | null, a: unknown[]): object | null {
  if (a.length === 0 || a[0] === undefined) return current;
  return isMapLike(a[0]) ? a[0] : null;
}

/** The `@user` spec over one user (or none: anonymous runs); the docs are the spec over nobody. */
export function userSpec(user: PelUserInfo | null): UtilitySpec {
  // Read on first use: the server fills some fields lazily (first and last name come from a lookup).
  let mine: object | null | undefined;
  const me = (): object | null => (mine === undefined ? (mine = asMap(user)) : mine);
  const can = (permission: string): boolean =>
    user !== null &&
    (user.hasPermission ? user.hasPermission(permission) : (user.roles ?? []).includes(permission));
  return {
    name: 'user',
    doc: 'The user the pipeline runs as (filled in by the server); null, false or empty when anonymous.',
    serverProvided: true,
    functions: {
      username: {
        signature: 'username()',
        doc: 'The login name, or null when anonymous.',
        fn: () => user?.username ?? null,
      },
      uuid: { signature: 'uuid()', doc: 'The user id.', fn: () => user?.uuid ?? null },
      displayName: {
        signature: 'displayName()',
        overloads: ['displayName(object)'],
        doc: 'The display name (else first and last name, else the username) of the current user, or of a user map (as @iam returns).',
        fn: (...a) => {
          const u = subject(me(), a);
          return u ? displayNameOf(u) : null;
        },
      },
      email: {
        signature: 'email()',
        overloads: ['email(object)'],
        doc: 'The email address of the current user, or of a user map; null when none.',
        fn: (...a) => {
          const u = subject(me(), a);
          return u ? field(u, 'email') : null;
        },
      },
      emailAndDisplayName: {
        signature: 'emailAndDisplayName()',
        overloads: ['emailAndDisplayName(object)'],
        doc: "'Display Name <email>' of the current user, or of a user map (the display name alone without email).",
        fn: (...a) => {
          const u = subject(me(), a);
          return u ? emailAndDisplayName(displayNameOf(u), field(u, 'email')) : null;
        },
      },
      firstName: {
        signature: 'firstName()',
        doc: 'The first name, or null.',
        fn: () => user?.firstName ?? null,
      },
      lastName: { signature: 'lastName()', doc: 'The last name, or null.', fn: () => user?.lastName ?? null },
      locale: {
        signature: 'locale()',
        doc: "The user's language tag (default 'en'); null when anonymous.",
        fn: () => (user ? (user.locale ?? 'en') : null),
      },
      zone: {
        signature: 'zone()',
        doc: "The user's time zone (default 'UTC'); null when anonymous.",
        fn: () => (user ? (user.zone ?? 'UTC') : null),
      },
      loggedIn: { signature: 'loggedIn()', doc: 'False for anonymous runs.', fn: () => user !== null },
      hasPermission: {
        signature: 'hasPermission(permissionKeys)',
        doc: "True when the user holds any of the permissions (one, a list or comma-separated text), counting `*` grants and admins: @user.hasPermission('CAN_PIPE_property.list').",
        fn: (...a) => listOrText('hasPermission', a, 0).some((p) => typeof p === 'string' && can(p)),
      },
      roles: { signature: 'roles()', doc: 'The role names.', fn: () => [...(user?.roles ?? [])] },
      groups: { signature: 'groups()', doc: 'The group names.', fn: () => [...(user?.groups ?? [])] },
      tenants: { signature: 'tenants()', doc: 'The tenant ids.', fn: () => [...(user?.tenants ?? [])] },
      hasRole: {
        signature: 'hasRole(role)',
        doc: 'True when the user has the role.',
        fn: (...a) => (user?.roles ?? []).includes(text('hasRole', a, 0)),
      },
      isAdmin: { signature: 'isAdmin()', doc: 'True for administrators.', fn: () => user?.isAdmin === true },
      actingUsername: {
        signature: 'actingUsername()',
        doc: 'Who actually signed in, when a RunAs switched identity; else the username.',
        fn: () => (user ? (user.actingUsername ?? user.username) : null),
      },
    },
  };
}

/** The `@user` functions over one user (or none: anonymous runs), for `options.utilities.user`. */
export function createUserUtility(user: PelUserInfo | null): PelUtility {
  return toUtility(userSpec(user));
}

/** Signatures and docs of `@user`, for completion and docs/pel.md. */
export const userUtilityDocs: UtilitySpec = userSpec(null);
