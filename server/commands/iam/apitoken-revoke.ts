/** `iam.apitoken.revoke`: ends an API token (its owner or an admin); access tokens got with it end too. */
import { isAdmin } from '../../../shared/auth';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { callerOf, iamOf, requiredString } from './iam-command-support';

export const iamApitokenRevoke = defineCommand<ServerServices>(
  {
    name: 'iam.apitoken.revoke',
    effect: 'write',
    audience: 'user',
    summary: 'Revokes an API token by its uuid; only its owner or an admin may.',
    description: 'A Pipework addition, beside `iam.apitoken`.',
    parameters: { uuid: { type: 'string', description: 'The uuid of the token, as listed.' } },
    required: ['uuid'],
    input: 'any',
    output: 'none',
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const iam = iamOf(ctx);
    const uuid = requiredString(ctx, 'uuid');
    const owner = await iam.apiTokens.ownerOf(uuid);
    // Someone else's token looks like no token at all: uuids of others' tokens are not confirmed.
    if (owner === undefined || (owner !== caller.uuid && !isAdmin(caller))) {
      throw new PipeworkError('NOT_FOUND', `No active API token ${uuid} of yours.`);
    }
    await iam.revokeApiToken(uuid);
    return undefined;
  },
);
