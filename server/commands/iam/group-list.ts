/** `iam.group.list`: groups, paged and filtered; with `sortByName` a map keyed by group name. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf } from './iam-command-support';

export const iamGroupList = defineCommand<ServerServices>(
  {
    name: 'iam.group.list',
    summary: 'Lists all groups (Keycloak GroupRepresentations).',
    parameters: {
      ...LIST_PARAMETERS,
      sortByName: {
        type: ['string', 'boolean'],
        description: 'If set (true), groups are returned as a map keyed by name.',
      },
    },
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const groups = await iamOf(ctx).groups.list(listQueryOf(ctx));
    const byName = ctx.params.sortByName;
    if (byName === undefined || byName === false || byName === 'false' || byName === '') return groups;
    return Object.fromEntries(groups.map((g) => [g.name, g]));
  },
);
