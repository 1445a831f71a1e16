/** `iam.user.roles`: the effective role names of a user (direct, from groups, and from composites). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import {
  LIST_PARAMETERS,
  USER_REF_PARAMETERS,
  iamOf,
  listQueryOf,
  page,
  stringParam,
} from './iam-command-support';

export const iamUserRoles = defineCommand<ServerServices>(
  {
    name: 'iam.user.roles',
    summary: 'Lists all effective role names of the given user.',
    parameters: { ...USER_REF_PARAMETERS, ...LIST_PARAMETERS },
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const user = await iam.users.require({
      uuid: stringParam(ctx, 'uuid'),
      username: stringParam(ctx, 'username'),
    });
    const query = listQueryOf(ctx);
    const filter = query.filter?.toLowerCase() ?? '';
    return page(
      (await iam.roles.effectiveRoleNames(user.uuid)).filter((name) => name.toLowerCase().includes(filter)),
      query,
    );
  },
);
