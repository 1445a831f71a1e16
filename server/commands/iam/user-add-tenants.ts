/** `iam.user.add.tenants`: makes a user a member of tenants (by name or id); returns the tenant ids. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { assertMayManageUser, assertMayShareMembership } from '../../iam/grant-guard';
import type { ServerServices } from '../../services';
import { NAME_LIST, callerOf, iamOf, namesParam, requiredString } from './iam-command-support';

export const iamUserAddTenants = defineCommand<ServerServices>(
  {
    name: 'iam.user.add.tenants',
    summary: 'Adds a user to tenants by tenant id or name and returns the tenant ids added.',
    parameters: {
      uuid: { type: 'string', description: 'The uuid of the user.' },
      tenantNames: {
        ...NAME_LIST,
        description: 'The tenant names to join. If not given, tenantIds is required.',
      },
      tenantIds: {
        ...NAME_LIST,
        description: 'The tenant ids to join. If not given, tenantNames is required.',
      },
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
    const tenants = await Promise.all([
      ...namesParam(ctx, 'tenantNames').map((name) => iam.tenants.require({ name })),
      ...namesParam(ctx, 'tenantIds').map((uuid) => iam.tenants.require({ uuid })),
    ]);
    if (tenants.length === 0) {
      throw new PipeworkError('PARAM_INVALID', "Give 'tenantNames' or 'tenantIds'.", {
        parameter: 'tenantNames',
      });
    }
    const caller = callerOf(ctx);
    await assertMayManageUser(caller, iam.roles, user);
    for (const tenant of tenants) assertMayShareMembership(caller, 'tenant', tenant);
    for (const tenant of tenants) await iam.tenants.addMember(tenant.uuid, user.uuid);
    return [...new Set(tenants.map((t) => t.uuid))];
  },
);
