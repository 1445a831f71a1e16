/** `secret.delete`: removes a named secret of a scope you may write. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { NAME, SCOPE_PARAMETERS, callerOf, scopeOf } from './secret-command-support';

export const secretDelete = defineCommand<ServerServices>(
  {
    name: 'secret.delete',
    summary: 'Deletes a secret by name (your own, or of the scope given).',
    parameters: { name: NAME, ...SCOPE_PARAMETERS },
    required: ['name'],
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'user',
  },
  async (ctx) => {
    const name = String(ctx.params.name);
    if (!(await ctx.services.secrets.delete(callerOf(ctx), name, scopeOf(ctx))))
      throw new PipeworkError('NOT_FOUND', `No secret '${name}' in this scope.`, { parameter: 'name' });
    return { deleted: name };
  },
);
