/** `cache.put`: keeps a value (the `value` parameter or the body) for a while. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, keyOf, scopeOf, toCached } from './cache-command-support';

const MIN_TTL_MINUTES = 5;
const MAX_TTL_MINUTES = 120;

export const cachePut = defineCommand<ServerServices>(
  {
    name: 'cache.put',
    summary: 'Keeps the value (or the body) in the cache under key for timeToLive minutes; the body stays.',
    description:
      'As in the real product, timeToLive is held between 5 and 120 minutes (5 by default). The cache is in ' +
      'memory and bounded (PIPEWORK_CACHE_MAX_ENTRIES, PIPEWORK_CACHE_MAX_BYTES): past a bound the least ' +
      'recently used entries go first, so an entry may be gone before its time. Entries are per tenant.',
    parameters: {
      key: KEY,
      value: { description: 'The value to keep; when absent, the body (text, JSON or a file).' },
      timeToLive: {
        type: 'number',
        default: MIN_TTL_MINUTES,
        description: `Minutes to keep the entry, held between ${MIN_TTL_MINUTES} and ${MAX_TTL_MINUTES}.`,
      },
    },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Keep a look-up for ten minutes',
        pipeline:
          'pipeline:\n  - cache.put: {key: "rates-#{vars.day}", value: "#{vars.rates}", timeToLive: 10}\n',
      },
    ],
  },
  async (ctx) => {
    const value = 'value' in ctx.params ? ctx.params.value : ctx.input;
    const asked = Number(ctx.params.timeToLive ?? MIN_TTL_MINUTES);
    const minutes = Math.min(MAX_TTL_MINUTES, Math.max(MIN_TTL_MINUTES, Number.isFinite(asked) ? asked : 0));
    const cached = toCached(value, ctx.services.config.limits.commandBodyBytes);
    await ctx.services.cache.put(scopeOf(ctx), keyOf(ctx), cached, minutes * 60_000);
    return ctx.input;
  },
);
