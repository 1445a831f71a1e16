/** `cache.clear`: removes expired entries (as the real product does), one entry, or all of the tenant's. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, keyOf, scopeOf } from './cache-command-support';

export const cacheClear = defineCommand<ServerServices>(
  {
    name: 'cache.clear',
    summary: 'Removes the expired entries of your tenant; with key that entry, with all: true every entry.',
    description: 'Answers {removed: <number of entries removed>}.',
    parameters: {
      key: { ...KEY, description: 'Removes only this entry.' },
      all: {
        type: 'boolean',
        default: false,
        description: 'Removes every entry of your tenant, expired or not.',
      },
    },
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [{ title: 'Start afresh', pipeline: 'pipeline:\n  - cache.clear: {all: true}\n' }],
  },
  async (ctx) => {
    const scope = scopeOf(ctx);
    if (ctx.params.key !== undefined)
      return { removed: (await ctx.services.cache.remove(scope, keyOf(ctx))) ? 1 : 0 };
    return { removed: await ctx.services.cache.clear(scope, { all: ctx.params.all === true }) };
  },
);
