/** `iam.bruteforce.release`: lifts the login lock of a user. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { BRUTEFORCE_PARAMETERS, bruteforceUsername } from './bruteforce-user';
import { iamOf } from './iam-command-support';

export const iamBruteforceRelease = defineCommand<ServerServices>(
  {
    name: 'iam.bruteforce.release',
    summary: 'Releases the login lock of a user. Nothing happens when the user is not locked.',
    parameters: BRUTEFORCE_PARAMETERS,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'admin',
  },
  async (ctx) => {
    const username = await bruteforceUsername(ctx);
    await iamOf(ctx).bruteForce.release(username);
    return iamOf(ctx).bruteForce.status(username);
  },
);
