/** `iam.user.get`: one user's representation, by username or uuid. */
import { defineCommand } from '../../../shared/commands';
import { userRepresentation } from '../../iam/records';
import type { ServerServices } from '../../services';
import { USER_REF_PARAMETERS, iamOf, stringParam } from './iam-command-support';

export const iamUserGet = defineCommand<ServerServices>(
  {
    name: 'iam.user.get',
    summary: 'Looks up a user and returns it (Keycloak UserRepresentation); NOT_FOUND when there is none.',
    parameters: USER_REF_PARAMETERS,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
  },
  async (ctx) => {
    const row = await iamOf(ctx).users.require({
      uuid: stringParam(ctx, 'uuid'),
      username: stringParam(ctx, 'username'),
    });
    return userRepresentation(row);
  },
);
