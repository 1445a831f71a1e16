/** `secret.get` and `secret.list`: the metadata of the secrets you may use, never their values. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { NAME, callerOf } from './secret-command-support';

async function metadata(ctx: CommandContext<ServerServices>, single: boolean): Promise<unknown> {
  const name = typeof ctx.params.name === 'string' && ctx.params.name !== '' ? ctx.params.name : undefined;
  const found = await ctx.services.secrets.list(callerOf(ctx), name);
  if (!single || name === undefined) return found;
  if (found.length === 0)
    throw new PipeworkError('NOT_FOUND', `No secret '${name}' you may use.`, { parameter: 'name' });
  return found[0];
}

export const secretGet = defineCommand<ServerServices>(
  {
    name: 'secret.get',
    summary: 'Returns the metadata (never the value) of one secret by name, or of all secrets you may use.',
    description:
      'Each entry: name, format, scope (user, group, tenant, installation; scopeName for a group or tenant), ' +
      'createdBy, created, updated, expires. The value of a secret is never returned, also not to its owner ' +
      'or an admin. includeTrashed is accepted for compatibility: secrets have no trash bin.',
    parameters: {
      name: { ...NAME, description: 'The name of one secret; all secrets you may use when absent.' },
      includeTrashed: { type: ['boolean', 'string'], description: 'Accepted; secrets have no trash bin.' },
    },
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
  },
  (ctx) => metadata(ctx, true),
);

export const secretList = defineCommand<ServerServices>(
  {
    name: 'secret.list',
    summary:
      "Lists the metadata (never the values) of the secrets you may use: yours, your groups', tenants', the installation's.",
    parameters: { name: { ...NAME, description: 'Only the secrets of this name.' } },
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
  },
  (ctx) => metadata(ctx, false),
);
