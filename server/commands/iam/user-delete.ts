/** `iam.user.delete`: deletes a user; its sessions end at once. */
import { defineCommand } from '../../../shared/commands';
import { assertMayManageUser } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { callerOf, iamOf, requiredString } from './iam-command-support';

export const iamUserDelete = defineCommand<ServerServices>(
  {
    name: 'iam.user.delete',
    summary: 'Deletes the user with the given uuid (the built-in admin and systemuser cannot be deleted).',
    parameters: { uuid: { type: 'string', description: 'The uuid of the user to delete.' } },
    required: ['uuid'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const uuid = requiredString(ctx, 'uuid');
    const row = await iam.users.require({ uuid });
    await assertMayManageUser(callerOf(ctx), iam.roles, row);
    await iam.deleteUser(uuid);
    return { uuid, username: row.username, deleted: true };
  },
);
