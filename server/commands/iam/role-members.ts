/** `iam.role.members`: users who hold a role, directly, through a group, or through a composite. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf, requiredString } from './iam-command-support';

export const iamRoleMembers = defineCommand<ServerServices>(
  {
    name: 'iam.role.members',
    summary: 'Lists the users who hold the given role (Keycloak UserRepresentations).',
    parameters: { roleName: { type: 'string', description: 'The name of the role.' }, ...LIST_PARAMETERS },
    required: ['roleName'],
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    return iam.users.representations(
      await iam.roles.memberUuids(requiredString(ctx, 'roleName')),
      listQueryOf(ctx),
    );
  },
);
