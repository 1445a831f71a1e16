/** `iam.run.as`: the rest of the pipeline runs as another user (same rules as the RunAs header). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { callerOf, iamOf, requiredString } from './iam-command-support';

export const iamRunAs = defineCommand<ServerServices>(
  {
    name: 'iam.run.as',
    summary: 'Executes the subsequent commands as another user.',
    description:
      'The caller needs CAN_RUN_AS_SOURCE, the target CAN_RUN_AS_TARGET; a switch cannot be nested and cannot ' +
      'reach ROLE_ADMIN unless the caller holds it. The body passes on unchanged.',
    parameters: { username: { type: 'string', description: 'The user the subsequent commands run as.' } },
    required: ['username'],
    defaultParameter: 'username',
    input: 'any',
    output: 'none',
    effect: 'write',
    audience: 'admin',
    examples: [
      {
        title: 'Run the setup as the technical user',
        pipeline: 'pipeline:\n  - iam.run.as:\n      username: systemuser\n',
      },
    ],
  },
  async (ctx) => {
    const switched = await iamOf(ctx).runAs(callerOf(ctx), requiredString(ctx, 'username'));
    ctx.setPrincipal(switched);
    ctx.log('INFO', `Running as '${switched.username}' (switched by '${switched.actingUsername ?? ''}').`);
    return undefined;
  },
);
