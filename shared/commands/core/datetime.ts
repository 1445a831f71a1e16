/** `datetime`: the current date and time, formatted with a Java-style pattern. */
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
        description: "A pattern such as 'dd.MM.yyyy HH:mm:ss'. Default: ISO-8601 (yyyy-MM-ddTHH:mm:ss.SSSZ).",
      },
    },
    defaultParameter: 'format',
    input: 'any',
    output: 'text',
    examples: [{ title: 'Today as text', pipeline: 'pipeline:\n  - datetime: dd.MM.yyyy\n' }],
  },
  ({ params }) => {
    const now = new Date();
    if (typeof params.format !== 'string' || params.format === '') return now.toISOString();
    return defaultUtilities.date!.format!(now.getTime(), params.format);
  },
);
