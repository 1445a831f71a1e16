/** `cache.has`: whether a value is kept under key. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, keyOf, scopeOf } from './cache-command-support';

export const cacheHas = defineCommand<ServerServices>(
  {
    name: 'cache.has',
    summary: 'Answers true when a value is kept under key (and has not expired).',
    parameters: { key: KEY },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'Is it cached?', pipeline: 'pipeline:\n  - cache.has: rates\n' }],
  },
  (ctx) => ctx.services.cache.has(scopeOf(ctx), keyOf(ctx)),
);
