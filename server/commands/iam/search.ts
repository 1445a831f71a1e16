/** `iam.search`: users, groups, roles or the realm, by type, paged and filtered. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf } from './iam-command-support';

export const iamSearch = defineCommand<ServerServices>(
  {
    name: 'iam.search',
    effect: 'read',
    audience: 'developer',
    summary:
      'Searches the IAM for entities of one type (ROLE, USER, GROUP, REALM), as Keycloak represents them.',
    parameters: {
      type: {
        type: 'string',
        enum: ['ROLE', 'USER', 'GROUP', 'REALM', 'role', 'user', 'group', 'realm'],
        description: 'The entity type: ROLE, USER, GROUP or REALM.',
      },
      ...LIST_PARAMETERS,
    },
    required: ['type'],
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    const query = listQueryOf(ctx);
    switch (String(ctx.params.type).toUpperCase()) {
      case 'USER':
        return iam.users.list(query);
      case 'GROUP':
        return iam.groups.list(query);
      case 'ROLE':
        return iam.roles.list(query);
      default: {
        const realm = ctx.services.config.realm;
        const matches = !query.filter || realm.toLowerCase().includes(query.filter.toLowerCase());
        return matches && (query.offset ?? 0) === 0 ? [{ id: realm, realm, enabled: true }] : [];
      }
    }
  },
);
