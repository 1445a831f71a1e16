/** `wait`: pauses the pipeline; the run's time limit and the caller going away end the pause early. */
import { defineCommand } from '../command-definition';
import { PipeworkError } from '../../errors';

/** No single pause may be longer than this (the run's own time limit is usually shorter). */
export const MAX_WAIT_MS = 10 * 60 * 1000;

export const wait = defineCommand(
  {
    name: 'wait',
    effect: 'read',
    audience: 'admin',
    summary: 'Waits the given milliseconds before the next step runs; the body is unchanged.',
    parameters: {
      ms: {
        type: ['integer', 'string'],
        default: 100,
        description: `The time to wait in milliseconds (0 to ${MAX_WAIT_MS}).`,
      },
    },
    defaultParameter: 'ms',
    input: 'any',
    output: 'none',
    examples: [{ title: 'Wait two seconds', pipeline: 'pipeline:\n  - wait:\n      ms: 2000\n' }],
  },
  async (ctx) => {
    const ms = Number(ctx.params.ms ?? 100);
    if (!Number.isInteger(ms) || ms < 0 || ms > MAX_WAIT_MS)
      throw new PipeworkError(
        'PARAM_INVALID',
        `Parameter 'ms' must be a whole number from 0 to ${MAX_WAIT_MS}.`,
        {
          parameter: 'ms',
        },
      );
    const signal = ctx.abortSignal();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  },
);
