/** The user the iam.bruteforce.* commands act on, and their parameters. */
import type { JsonSchema } from '../../../shared/commands';
import { type IamContext, iamOf, stringParam } from './iam-command-support';

export const BRUTEFORCE_PARAMETERS: Record<string, JsonSchema> = {
  username: { type: 'string', description: 'The name of the user. If not set, param uuid must be set.' },
  uuid: { type: 'string', description: 'The uuid of the user. If set, the param username is ignored.' },
};

export async function bruteforceUsername(ctx: IamContext): Promise<string> {
  const iam = iamOf(ctx);
  const user = await iam.users.require({
    uuid: stringParam(ctx, 'uuid'),
    username: stringParam(ctx, 'username'),
  });
  return user.username;
}
