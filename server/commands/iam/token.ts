/** `iam.token`: exchanges a username and password for tokens, exactly as the token endpoint does. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamOf, requiredString, stringParam } from './iam-command-support';
import { bruteForceAddressOf } from './token-caller';
import { asCommandError } from './oauth-failure';

export const iamToken = defineCommand<ServerServices>(
  {
    name: 'iam.token',
    summary: 'Obtains an access and a refresh token for the given credentials (Keycloak token response).',
    parameters: {
      username: { type: 'string', description: 'The user name.' },
      password: { type: 'string', description: 'The user password.' },
      clientId: {
        type: 'string',
        default: 'cli',
        description: 'The client the tokens are for (default: cli).',
      },
    },
    required: ['username', 'password'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
  },
  async (ctx) => {
    try {
      return await iamOf(ctx).tokens.passwordGrant({
        clientId: stringParam(ctx, 'clientId') ?? 'cli',
        username: requiredString(ctx, 'username'),
        password: requiredString(ctx, 'password'),
        ip: bruteForceAddressOf(ctx),
      });
    } catch (error) {
      throw asCommandError(error);
    }
  },
);
