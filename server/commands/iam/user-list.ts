/** `iam.user.list`: users, paged and filtered; with includeGroups / includeRoles their groups and roles. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf } from './iam-command-support';

const isTrue = (value: unknown): boolean => value === true || value === 'true';

export const iamUserList = defineCommand<ServerServices>(
  {
    name: 'iam.user.list',
    summary: 'Lists users (Keycloak UserRepresentations), ordered by username.',
    description:
      'includeGroups adds `groups` (the group paths, /<name>, as Keycloak gives them), includeRoles adds ' +
      '`realmRoles` (the effective role names); each costs a lookup per user.',
    parameters: {
      ...LIST_PARAMETERS,
      includeGroups: {
        type: ['boolean', 'string'],
        description: 'Include the groups each user is a member of (slower).',
      },
      includeRoles: {
        type: ['boolean', 'string'],
        description: 'Include the effective roles of each user (slower).',
      },
    },
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const users = await iam.users.list(listQueryOf(ctx));
    const groups = isTrue(ctx.params.includeGroups);
    const roles = isTrue(ctx.params.includeRoles);
    if (!groups && !roles) return users;
    const out: Record<string, unknown>[] = [];
    for (const user of users) {
      const extra: Record<string, unknown> = {};
      if (groups) extra.groups = (await iam.groups.groupsOfUser(user.id)).map((g) => `/${g.name}`);
      if (roles) extra.realmRoles = await iam.roles.effectiveRoleNames(user.id);
      out.push({ ...user, ...extra });
    }
    return out;
  },
);
