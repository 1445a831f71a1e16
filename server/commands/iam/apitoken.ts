/**
 * `iam.apitoken`: exchanges a username and password for a long-lived API token (the real product's offline
 * token). The token is in this answer only; it is stored as a digest. Use it as `Authorization: Apitoken
 * <token>` or trade it for an access token with `iam.token.refresh`.
 */
import { defineCommand } from '../../../shared/commands';
import { DEFAULT_API_TOKEN_DAYS, MAX_API_TOKEN_DAYS } from '../../auth/api-tokens';
import type { ServerServices } from '../../services';
import { bruteForceAddressOf } from './token-caller';
import { iamOf, requiredString, stringParam } from './iam-command-support';
import { asCommandError } from './oauth-failure';

export const iamApitoken = defineCommand<ServerServices>(
  {
    name: 'iam.apitoken',
    effect: 'write',
    audience: 'user',
    summary: 'Creates a long-lived API token for the given credentials; the token is shown only this once.',
    description:
      'Needs no prior credentials. Send the token as `Authorization: Apitoken <token>`, or as `refreshToken` ' +
      'of `iam.token.refresh` for a short-lived access token. `iam.apitoken.list` and `iam.apitoken.revoke` ' +
      'manage the tokens. `name` and `expiresInDays` are Pipework additions.',
    parameters: {
      username: { type: 'string', description: 'The user name.' },
      password: { type: 'string', description: 'The user password.' },
      name: { type: 'string', maxLength: 200, description: 'A label to recognise the token in listings.' },
      expiresInDays: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_API_TOKEN_DAYS,
        default: DEFAULT_API_TOKEN_DAYS,
        description: `Days until the token expires (default ${DEFAULT_API_TOKEN_DAYS}).`,
      },
    },
    required: ['username', 'password'],
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const iam = iamOf(ctx);
    let userUuid: string;
    try {
      const principal = await iam.verifyPassword(
        requiredString(ctx, 'username'),
        requiredString(ctx, 'password'),
        bruteForceAddressOf(ctx),
      );
      userUuid = principal.uuid;
    } catch (error) {
      throw asCommandError(error);
    }
    const days = typeof ctx.params.expiresInDays === 'number' ? ctx.params.expiresInDays : undefined;
    const created = await iam.apiTokens.create(userUuid, { name: stringParam(ctx, 'name'), days });
    return {
      apitoken: created.token,
      token_type: 'Apitoken',
      uuid: created.uuid,
      name: created.name,
      username: created.username,
      created: created.created,
      expires: created.expires,
      expires_in: Math.floor((created.expires - created.created) / 1000),
    };
  },
);
