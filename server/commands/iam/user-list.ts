/** `iam.user.list`: users, paged and filtered. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { LIST_PARAMETERS, iamOf, listQueryOf } from './iam-command-support';

export const iamUserList = defineCommand<ServerServices>(
  {
    name: 'iam.user.list',
    summary: 'Lists users (Keycloak UserRepresentations), ordered by username.',
    parameters: LIST_PARAMETERS,
    input: 'any',
    output: 'json',
    effect: 'read',
  },
  (ctx) => iamOf(ctx).users.list(listQueryOf(ctx)),
);
