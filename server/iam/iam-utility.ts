/**
 * The `@iam` PEL utility for a principal: users by uuid, username or email, as the `iam.user.get` command
 * shows them and only to callers who may run it; anyone else gets null, as for a user that does not exist.
 */
import { type Principal, hasPermission } from '../../shared/auth';
import type { PelUtility } from '../../shared/pel';
import { type PelIamReader, createIamUtility } from '../../shared/pel/utilities';
import type { ServerServices } from '../services';
import { type UserRow, userRepresentation } from './records';

/** The permission `iam.user.get` needs; `@iam` and `uri:user:` lookups of other users need it too. */
export const USER_LOOKUP_PERMISSION = 'CAN_PIPE_iam.user.get';

export function iamLookupsFor(
  principal: Principal | null,
  services: Pick<ServerServices, 'iam'>,
): PelIamReader {
  const may = principal !== null && hasPermission(principal, USER_LOOKUP_PERMISSION);
  const shown = (row: UserRow | undefined): unknown => (may && row ? userRepresentation(row) : undefined);
  return {
    userByUuid: (uuid) => (may ? shown(services.iam.usersSync.byUuid(uuid)) : undefined),
    userByUsername: (username) => (may ? shown(services.iam.usersSync.byName(username)) : undefined),
    userByEmail: (email) => (may ? shown(services.iam.usersSync.byEmail(email)) : undefined),
  };
}

export function createServerIamUtility(principal: Principal | null, services: ServerServices): PelUtility {
  return createIamUtility(iamLookupsFor(principal, services));
}
