/** `iam.user.groups`: the groups a user is a member of. */
import { defineCommand } from '../../../shared/commands';
import { groupRepresentation } from '../../iam/records';
import type { ServerServices } from '../../services';
import {
  LIST_PARAMETERS,
  USER_REF_PARAMETERS,
  iamOf,
  listQueryOf,
  page,
  stringParam,
} from './iam-command-support';

export const iamUserGroups = defineCommand<ServerServices>(
  {
    name: 'iam.user.groups',
    summary: 'Lists the groups the given user is a member of (Keycloak GroupRepresentations).',
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
    const groups = (await iam.groups.groupsOfUser(user.uuid)).filter((g) =>
      g.name.toLowerCase().includes(filter),
    );
    return page(groups, query).map(groupRepresentation);
  },
);
