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
  },
  (ctx) => {
    const query = listQueryOf(ctx);
    const filter = query.filter?.toLowerCase() ?? '';
    return page(
      iamOf(ctx)
        .tenants.list()
        .filter((t) => t.name.toLowerCase().includes(filter)),
      query,
    );
  },
);
