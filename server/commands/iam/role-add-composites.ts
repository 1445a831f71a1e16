/**
 * `iam.role.add.composites`: makes roles part of a role. Missing roles (parent or children) are created:
 * permission roles are plain names, and the app setup pipelines name roles no one created before.
 */
import { defineCommand } from '../../../shared/commands';
import { assertMayGrant } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString } from './iam-command-support';

export const iamRoleAddComposites = defineCommand<ServerServices>(
  {
    name: 'iam.role.add.composites',
    summary: 'Adds composite roles to a role (both created when missing); holders of the role gain them.',
    parameters: {
      roleName: { type: 'string', description: 'The role that receives the composites.' },
      composites: { ...NAME_LIST, description: 'The role names to add: comma separated or a list.' },
    },
    required: ['roleName', 'composites'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const roleName = requiredString(ctx, 'roleName');
    const composites = namesParam(ctx, 'composites');
    await assertMayGrant(callerOf(ctx), iam.roles, composites);
    await iam.roles.ensure(roleName);
    await iam.roles.addComposites(roleName, composites);
    return { roleName, composites: await iam.roles.compositeNames(roleName) };
  },
);
