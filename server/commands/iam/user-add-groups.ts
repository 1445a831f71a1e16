/** `iam.user.add.groups`: makes a user a member of groups (by name or id); returns the group ids. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { assertMayGrant, assertMayManageUser, assertMayShareMembership } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString } from './iam-command-support';

export const iamUserAddGroups = defineCommand<ServerServices>(
  {
    name: 'iam.user.add.groups',
    summary: 'Adds groups to a user by group id or name and returns the group ids added.',
    parameters: {
      uuid: { type: 'string', description: 'The uuid of the user.' },
      groupNames: {
        ...NAME_LIST,
        description: 'The group names to join. If not given, groupIds is required.',
      },
      groupIds: { ...NAME_LIST, description: 'The group ids to join. If not given, groupNames is required.' },
    },
    required: ['uuid'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const user = await iam.users.require({ uuid: requiredString(ctx, 'uuid') });
    const groups = await Promise.all([
      ...namesParam(ctx, 'groupNames').map((name) => iam.groups.require({ name })),
      ...namesParam(ctx, 'groupIds').map((uuid) => iam.groups.require({ uuid })),
    ]);
    if (groups.length === 0) {
      throw new PipeworkError('PARAM_INVALID', "Give 'groupNames' or 'groupIds'.", {
        parameter: 'groupNames',
      });
    }
    const caller = callerOf(ctx);
    await assertMayManageUser(caller, iam.roles, user);
    for (const group of groups) {
      assertMayShareMembership(caller, 'group', group);
      await assertMayGrant(caller, iam.roles, await iam.roles.effectiveGroupRoleNames(group.uuid));
    }
    for (const group of groups) await iam.groups.addMember(group.uuid, user.uuid);
    return [...new Set(groups.map((g) => g.uuid))];
  },
);
