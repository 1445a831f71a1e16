/** `iam.group.create`: creates a group, optionally with roles, and returns its uuid as `groupUuid`. */
import { defineCommand } from '../../../shared/commands';
import { assertMayGrant } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { attributesJsonOf } from './attributes';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString } from './iam-command-support';

export const iamGroupCreate = defineCommand<ServerServices>(
  {
    name: 'iam.group.create',
    summary:
      'Creates a new group and returns its uuid under the key groupUuid. CONFLICT if it already exists.',
    parameters: {
      name: { type: 'string', description: 'The unique group name.' },
      roleNames: { ...NAME_LIST, description: 'Roles to be assigned to this group on creation.' },
      attributes: { type: ['string', 'object'], description: 'A map of optional attributes (JSON).' },
    },
    required: ['name'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const roleNames = namesParam(ctx, 'roleNames');
    await assertMayGrant(callerOf(ctx), iam.roles, roleNames);
    const row = await iam.groups.create({
      name: requiredString(ctx, 'name'),
      roleNames,
      attributes: attributesJsonOf(ctx.params.attributes),
    });
    return { groupUuid: row.uuid, name: row.name };
  },
);
