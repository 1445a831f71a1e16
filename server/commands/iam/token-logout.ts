/** `iam.token.logout`: ends the login session of a refresh token and removes tokens from the headers. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamOf, requiredString } from './iam-command-support';

export const iamTokenLogout = defineCommand<ServerServices>(
  {
    name: 'iam.token.logout',
    summary:
      'Logs out the session of the refresh token and removes accessToken and refreshToken from the headers.',
    parameters: { refreshToken: { type: 'string', description: 'The refresh token.' } },
    required: ['refreshToken'],
    input: 'any',
    output: 'none',
    effect: 'write',
    audience: 'user',
  },
  async (ctx) => {
    await iamOf(ctx).tokens.logout(requiredString(ctx, 'refreshToken'));
    delete ctx.scope.headers.accessToken;
    delete ctx.scope.headers.refreshToken;
    return undefined;
  },
);
