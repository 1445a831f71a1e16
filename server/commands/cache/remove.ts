/** `cache.remove`: drops the entry under key. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, keyOf, scopeOf } from './cache-command-support';

export const cacheRemove = defineCommand<ServerServices>(
  {
    name: 'cache.remove',
    summary: 'Removes the entry under key; answers whether there was one.',
    parameters: { key: KEY },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [{ title: 'Forget a value', pipeline: 'pipeline:\n  - cache.remove: rates\n' }],
  },
  (ctx) => ctx.services.cache.remove(scopeOf(ctx), keyOf(ctx)),
);
