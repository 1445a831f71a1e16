/** `iam.token.refresh`: rotates a refresh token; the new tokens go to the output and to the headers. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamOf, requiredString, stringParam } from './iam-command-support';
import { asCommandError } from './oauth-failure';

export const iamTokenRefresh = defineCommand<ServerServices>(
  {
    name: 'iam.token.refresh',
    summary: 'Obtains new tokens with a refresh token; also sets the headers accessToken and refreshToken.',
    description: 'The refresh token is used up: presenting it again ends the whole login session.',
    parameters: {
      refreshToken: { type: 'string', description: 'The refresh token.' },
      clientId: {
        type: 'string',
        default: 'cli',
        description: 'The client the token was issued to (default: cli).',
      },
    },
    required: ['refreshToken'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
  },
  async (ctx) => {
    try {
      const tokens = await iamOf(ctx).tokens.refreshGrant({
        clientId: stringParam(ctx, 'clientId') ?? 'cli',
        refreshToken: requiredString(ctx, 'refreshToken'),
      });
      ctx.scope.headers.accessToken = tokens.access_token;
      ctx.scope.headers.refreshToken = tokens.refresh_token;
      return tokens;
    } catch (error) {
      throw asCommandError(error);
    }
  },
);
