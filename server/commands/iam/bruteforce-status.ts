/** `iam.bruteforce.status`: the failed-login count and lock of a user. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { BRUTEFORCE_PARAMETERS, bruteforceUsername } from './bruteforce-user';
import { iamOf } from './iam-command-support';

export const iamBruteforceStatus = defineCommand<ServerServices>(
  {
    name: 'iam.bruteforce.status',
    summary: 'Returns the failed-login count and lock of a user.',
    parameters: BRUTEFORCE_PARAMETERS,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'admin',
  },
  async (ctx) => iamOf(ctx).bruteForce.status(await bruteforceUsername(ctx)),
);
