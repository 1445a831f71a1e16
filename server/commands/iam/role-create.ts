/** `iam.role.create`: creates a role, optionally composite, and returns its uuid as `roleUuid`. */
import { defineCommand } from '../../../shared/commands';
import { assertMayGrant } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { attributesJsonOf } from './attributes';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString, stringParam } from './iam-command-support';

export const iamRoleCreate = defineCommand<ServerServices>(
  {
    name: 'iam.role.create',
    summary: 'Creates a new role and returns its uuid under the key roleUuid. CONFLICT if it already exists.',
    parameters: {
      name: { type: 'string', description: 'The unique role name.' },
      composites: { ...NAME_LIST, description: 'Role names this role contains (makes it a composite).' },
      description: { type: 'string', description: 'What the role is for.' },
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
    const composites = namesParam(ctx, 'composites');
    await assertMayGrant(callerOf(ctx), iam.roles, composites);
    const row = await iam.roles.create({
      name: requiredString(ctx, 'name'),
      description: stringParam(ctx, 'description'),
      attributes: attributesJsonOf(ctx.params.attributes),
    });
    if (composites.length > 0) await iam.roles.addComposites(row.name, composites);
    return { roleUuid: row.uuid, name: row.name };
  },
);
