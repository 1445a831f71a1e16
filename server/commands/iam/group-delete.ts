/** `iam.group.delete`: deletes a group; its members lose the roles it granted. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamOf, requiredString } from './iam-command-support';

export const iamGroupDelete = defineCommand<ServerServices>(
  {
    name: 'iam.group.delete',
    summary: 'Deletes the group with the given uuid.',
    parameters: { uuid: { type: 'string', description: 'The uuid of the group to delete.' } },
    required: ['uuid'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const uuid = requiredString(ctx, 'uuid');
    const row = await iamOf(ctx).groups.require({ uuid });
    await iamOf(ctx).groups.delete(uuid);
    return { groupUuid: uuid, name: row.name, deleted: true };
  },
);
