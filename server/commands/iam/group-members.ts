/** `iam.group.members`: the users in a group. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf, stringParam } from './iam-command-support';

export const iamGroupMembers = defineCommand<ServerServices>(
  {
    name: 'iam.group.members',
    summary: 'Lists the users who are members of the given group (Keycloak UserRepresentations).',
    parameters: {
      name: { type: 'string', description: 'The name of the group. If not set, param uuid must be set.' },
      uuid: { type: 'string', description: 'The uuid of the group. If set, the param name is ignored.' },
      ...LIST_PARAMETERS,
    },
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const group = await iam.groups.require({
      uuid: stringParam(ctx, 'uuid'),
      name: stringParam(ctx, 'name'),
    });
    return iam.users.representations(await iam.groups.memberUuids(group.uuid), listQueryOf(ctx));
  },
);
