/** `iam.group.add.roles`: grants roles to a group, and so to all its members. */
import { defineCommand } from '../../../shared/commands';
import { assertMayGrant } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, stringParam } from './iam-command-support';

export const iamGroupAddRoles = defineCommand<ServerServices>(
  {
    name: 'iam.group.add.roles',
    summary: 'Adds roles to a given group. Roles must exist beforehand.',
    parameters: {
      groupUuid: { type: 'string', description: 'The uuid of the group (or give groupName).' },
      groupName: { type: 'string', description: 'The unique group name (used when groupUuid is not set).' },
      roleNames: { ...NAME_LIST, description: 'The role names to join: comma separated or a list.' },
    },
    required: ['roleNames'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const group = await iam.groups.require({
      uuid: stringParam(ctx, 'groupUuid'),
      name: stringParam(ctx, 'groupName'),
    });
    const roleNames = namesParam(ctx, 'roleNames');
    await assertMayGrant(callerOf(ctx), iam.roles, roleNames);
    return iam.groups.addRoles(group.uuid, roleNames);
  },
);
