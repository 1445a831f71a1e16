/** `@user`: the current user, through an interface the server fills in (PEL itself knows no users). */
import type { PelUtility } from '../types';
import { type UtilitySpec, text, toUtility } from './support';

/** What the server tells PEL about the user a pipeline runs as. */
export interface PelUserInfo {
  username: string;
  displayName?: string | null;
  email?: string | null;
  uuid?: string | null;
  roles?: readonly string[];
  groups?: readonly string[];
  tenants?: readonly string[];
  /** Who actually signed in, when a RunAs switched identity. */
  actingUsername?: string | null;
  isAdmin?: boolean;
  /** The server's permission rule (`*` grants, admins); without it, a permission is a role held. */
  hasPermission?: (permission: string) => boolean;
}

/** The `@user` functions over one user (or none: anonymous runs), for `options.utilities.user`. */
export function createUserUtility(user: PelUserInfo | null): PelUtility {
  const displayName = (): string | null => (user ? user.displayName || user.username : null);
  return toUtility({
    name: 'user',
    doc: '',
    functions: {
      username: { signature: '', doc: '', fn: () => user?.username ?? null },
      displayName: { signature: '', doc: '', fn: displayName },
      email: { signature: '', doc: '', fn: () => user?.email ?? null },
      emailAndDisplayName: {
        signature: '',
        doc: '',
        fn: () => (user ? (user.email ? `${displayName()} <${user.email}>` : displayName()) : null),
      },
      uuid: { signature: '', doc: '', fn: () => user?.uuid ?? null },
      roles: { signature: '', doc: '', fn: () => [...(user?.roles ?? [])] },
      groups: { signature: '', doc: '', fn: () => [...(user?.groups ?? [])] },
      tenants: { signature: '', doc: '', fn: () => [...(user?.tenants ?? [])] },
      hasRole: { signature: '', doc: '', fn: (...a) => (user?.roles ?? []).includes(text('hasRole', a, 0)) },
      hasPermission: {
        signature: '',
        doc: '',
        fn: (...a) => {
          const permission = text('hasPermission', a, 0);
          if (!user) return false;
          return user.hasPermission
            ? user.hasPermission(permission)
            : (user.roles ?? []).includes(permission);
        },
      },
      isAdmin: { signature: '', doc: '', fn: () => user?.isAdmin === true },
      actingUsername: {
        signature: '',
        doc: '',
        fn: () => (user ? (user.actingUsername ?? user.username) : null),
      },
      isAuthenticated: { signature: '', doc: '', fn: () => user !== null },
    },
  });
}

/** Signatures and docs of `@user`, for completion and docs/pel.md. */
export const userUtilityDocs: UtilitySpec = {
  name: 'user',
  doc: 'The user the pipeline runs as (filled in by the server).',
  serverProvided: true,
  functions: {
    username: { signature: 'username()', doc: 'The login name, or null when anonymous.', fn: () => null },
    displayName: {
      signature: 'displayName()',
      doc: 'The display name (the username when none is set).',
      fn: () => null,
    },
    email: { signature: 'email()', doc: 'The email address, or null.', fn: () => null },
    emailAndDisplayName: {
      signature: 'emailAndDisplayName()',
      doc: "'Display Name <email>' (the display name alone without email).",
      fn: () => null,
    },
    uuid: { signature: 'uuid()', doc: 'The user id.', fn: () => null },
    roles: { signature: 'roles()', doc: 'The role names.', fn: () => null },
    groups: { signature: 'groups()', doc: 'The group names.', fn: () => null },
    tenants: { signature: 'tenants()', doc: 'The tenant ids.', fn: () => null },
    hasRole: { signature: 'hasRole(role)', doc: 'True when the user has the role.', fn: () => null },
    hasPermission: {
      signature: 'hasPermission(permission)',
      doc: "True when the user holds the permission, counting `*` grants and admins (e.g. 'CAN_PIPE_property.list').",
      fn: () => null,
    },
    isAdmin: { signature: 'isAdmin()', doc: 'True for administrators.', fn: () => null },
    actingUsername: {
      signature: 'actingUsername()',
      doc: 'Who actually signed in, when a RunAs switched identity; else the username.',
      fn: () => null,
    },
    isAuthenticated: { signature: 'isAuthenticated()', doc: 'False for anonymous runs.', fn: () => null },
  },
};
