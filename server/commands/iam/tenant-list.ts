/** `iam.tenant.list`: the tenants of the instance. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf, page } from './iam-command-support';

export const iamTenantList = defineCommand<ServerServices>(
  {
    name: 'iam.tenant.list',
    summary: 'Lists the tenants ({id, name}).',
    parameters: LIST_PARAMETERS,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'admin',
  },
  async (ctx) => {
    const query = listQueryOf(ctx);
    const filter = query.filter?.toLowerCase() ?? '';
    const tenants = await iamOf(ctx).tenants.list();
    return page(
      tenants.filter((t) => t.name.toLowerCase().includes(filter)),
      query,
    );
  },
);
