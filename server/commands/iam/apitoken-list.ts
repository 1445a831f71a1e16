/** `iam.apitoken.list`: the caller's active API tokens; an admin may ask for another user's or everyone's. */
import { isAdmin } from '../../../shared/auth';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { callerOf, iamOf, stringParam } from './iam-command-support';

export const iamApitokenList = defineCommand<ServerServices>(
  {
    name: 'iam.apitoken.list',
    effect: 'read',
    audience: 'user',
    summary: 'Lists active API tokens (uuid, name, owner, created, expires, last use), never the tokens.',
    description:
      "Without `username`, the caller's own tokens. Admins may name another user, or `*` for everyone's. " +
      'A Pipework addition: the real product manages offline tokens in its identity server.',
    parameters: {
      username: { type: 'string', description: "Whose tokens (admins only; '*' for all users)." },
    },
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const iam = iamOf(ctx);
    const username = stringParam(ctx, 'username');
    if (username === undefined || username.toLowerCase() === caller.username.toLowerCase()) {
      return iam.apiTokens.list(caller.uuid);
    }
    if (!isAdmin(caller)) {
      throw new PipeworkError('FORBIDDEN', "Only admins list other users' API tokens.");
    }
    if (username === '*') return iam.apiTokens.list();
    const owner = await iam.users.require({ username });
    return iam.apiTokens.list(owner.uuid);
  },
);
