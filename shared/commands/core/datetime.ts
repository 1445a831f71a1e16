/** `datetime`: the current date and time, formatted with a Java-style pattern in a time zone. */
import { isPipeworkError, PipeworkError } from '../../errors';
import { defaultUtilities } from '../../pel';
import { defineCommand } from '../command-definition';

export const datetime = defineCommand(
  {
    name: 'datetime',
    summary:
      'Outputs the current date and time, formatted with a Java-style pattern (default: ISO-8601 in UTC).',
    parameters: {
      format: {
        type: 'string',
        description:
          "A pattern such as 'dd.MM.yyyy HH:mm:ss'. Default: ISO-8601 (yyyy-MM-ddTHH:mm:ss.SSSZ, UTC).",
      },
      timeZone: {
        type: 'string',
        default: 'UTC',
        description: "An IANA time zone such as 'Europe/Berlin'. Default: UTC.",
      },
    },
    defaultParameter: 'format',
    input: 'any',
    output: 'text',
    effect: 'read',
    audience: 'user',
    examples: [
      { title: 'Today as text', pipeline: 'pipeline:\n  - datetime: dd.MM.yyyy\n' },
      {
        title: 'Local time in Berlin',
        pipeline: 'pipeline:\n  - datetime:\n      format: HH:mm\n      timeZone: Europe/Berlin\n',
      },
    ],
  },
  ({ params }) => {
    const now = Date.now();
    const format = typeof params.format === 'string' && params.format !== '' ? params.format : undefined;
    const zone = typeof params.timeZone === 'string' && params.timeZone !== '' ? params.timeZone : 'UTC';
    if (!format && zone === 'UTC') return new Date(now).toISOString();
    try {
      return defaultUtilities.date!.format!(now, format ?? "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", zone);
    } catch (error) {
      if (!isPipeworkError(error)) throw error;
      const parameter = /zone/i.test(error.message) ? 'timeZone' : 'format';
      throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' of 'datetime': ${error.message}`, {
        parameter,
      });
    }
  },
);
