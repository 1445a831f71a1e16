/** `iam.user.add.roles`: grants roles to a user directly (roles must exist; no more than the caller holds). */
import { defineCommand } from '../../../shared/commands';
import { assertMayGrant, assertMayManageUser } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, stringParam } from './iam-command-support';

export const iamUserAddRoles = defineCommand<ServerServices>(
  {
    name: 'iam.user.add.roles',
    summary: 'Adds roles to a given user. Roles must exist beforehand.',
    parameters: {
      userUuid: { type: 'string', description: 'The uuid of the user (or give username).' },
      username: { type: 'string', description: 'The username (used when userUuid is not set).' },
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
    const user = await iam.users.require({
      uuid: stringParam(ctx, 'userUuid'),
      username: stringParam(ctx, 'username'),
    });
    const roleNames = namesParam(ctx, 'roleNames');
    const caller = callerOf(ctx);
    await assertMayManageUser(caller, iam.roles, user);
    await assertMayGrant(caller, iam.roles, roleNames);
    return iam.users.addRoles(user.uuid, roleNames);
  },
);
