/** `iam.tenant.create`: creates a tenant; its uuid names the folder `tenant/<uuid>/` of the property store. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamOf, requiredString } from './iam-command-support';

export const iamTenantCreate = defineCommand<ServerServices>(
  {
    name: 'iam.tenant.create',
    summary: 'Creates a tenant and returns its uuid under the key tenantUuid. CONFLICT if it already exists.',
    parameters: { name: { type: 'string', description: 'The unique tenant name.' } },
    required: ['name'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const row = await iamOf(ctx).tenants.create(requiredString(ctx, 'name'));
    return { tenantUuid: row.uuid, name: row.name };
  },
);
