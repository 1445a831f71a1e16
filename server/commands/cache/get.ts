/** `cache.get`: the value kept under key, or null. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, fromCached, keyOf, scopeOf } from './cache-command-support';

export const cacheGet = defineCommand<ServerServices>(
  {
    name: 'cache.get',
    summary: 'Returns the value kept under key, or null when there is none (or it expired).',
    parameters: {
      key: KEY,
      remove: { type: 'boolean', default: false, description: 'When true, the entry is removed once read.' },
      exit: {
        type: 'boolean',
        default: false,
        description:
          'When true and the entry exists, the pipeline ends after this step with the value as its result.',
      },
    },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Read a kept value',
        pipeline: 'pipeline:\n  - cache.get: {key: rates, output: "#{vars.rates}"}\n',
      },
    ],
  },
  async (ctx) => {
    const scope = scopeOf(ctx);
    const value = await ctx.services.cache.get(scope, keyOf(ctx));
    if (value === undefined) return null;
    if (ctx.params.remove === true) await ctx.services.cache.remove(scope, keyOf(ctx));
    if (ctx.params.exit === true) ctx.exit?.();
    return fromCached(value);
  },
);
