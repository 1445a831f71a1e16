/** `iam.group.list.names`: the names of the groups, paged and filtered. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf } from './iam-command-support';

export const iamGroupListNames = defineCommand<ServerServices>(
  {
    name: 'iam.group.list.names',
    effect: 'read',
    audience: 'developer',
    summary: 'Lists the names of all groups, ordered by name.',
    parameters: LIST_PARAMETERS,
    input: 'any',
    output: 'json',
  },
  async (ctx) => (await iamOf(ctx).groups.list(listQueryOf(ctx))).map((g) => g.name),
);
