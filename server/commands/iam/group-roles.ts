/** `iam.group.roles`: the effective role names a group gives its members. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf, page, stringParam } from './iam-command-support';

export const iamGroupRoles = defineCommand<ServerServices>(
  {
    name: 'iam.group.roles',
    effect: 'read',
    audience: 'developer',
    summary: 'Lists all effective role names the given group is assigned to.',
    parameters: {
      groupName: {
        type: 'string',
        description: 'The name of the group. If not set, param uuid must be set.',
      },
      uuid: { type: 'string', description: 'The uuid of the group. If set, groupName is ignored.' },
      ...LIST_PARAMETERS,
    },
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const group = await iam.groups.require({
      uuid: stringParam(ctx, 'uuid'),
      name: stringParam(ctx, 'groupName'),
    });
    const query = listQueryOf(ctx);
    const filter = query.filter?.toLowerCase() ?? '';
    return page(
      (await iam.roles.effectiveGroupRoleNames(group.uuid)).filter((n) => n.toLowerCase().includes(filter)),
      query,
    );
  },
);
