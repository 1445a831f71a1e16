/** `log`: writes a message (or the body) to the log and passes the body on. */
import { describeJsonRefusal, stringifyBounded } from '../../values';
import { defineCommand, type LogLevel } from '../command-definition';

const LEVELS: LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/** A log line holds at most this many characters of a value. */
const MAX_LOGGED_CHARS = 64 * 1024;

/** How a logged value reads: text as it is, anything else as JSON; never more than a log line should hold. */
export function logText(value: unknown): string {
  if (typeof value === 'string') {
    return value.length > MAX_LOGGED_CHARS
      ? `${value.slice(0, MAX_LOGGED_CHARS)}… (${value.length} characters)`
      : value;
  }
  if (value === undefined) return 'null';
  const json = stringifyBounded(value, MAX_LOGGED_CHARS);
  return json.ok ? json.text : `[a value that ${describeJsonRefusal(json.reason, MAX_LOGGED_CHARS)}]`;
}

export const log = defineCommand(
  {
    name: 'log',
    summary: 'Logs a message (or the body when no message is given) and passes the body on unchanged.',
    description:
      'When the body is empty, the message becomes the body, so `log` at the end of a pipeline answers with it.',
    parameters: {
      message: {
        description: 'The message to log: text, an expression, or any JSON value. Default: the body.',
      },
      level: {
        type: 'string',
        enum: [...LEVELS, ...LEVELS.map((l) => l.toLowerCase())],
        default: 'INFO',
        description: 'The log level (any case).',
      },
    },
    defaultParameter: 'message',
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Log a field of the body',
        pipeline: 'pipeline:\n  - log: "BODY: #{body.text}"\nbody: {"text": "hello"}\n',
      },
    ],
  },
  ({ params, input, log: write }) => {
    const message = params.message === undefined ? input : params.message;
    const level = ((params.level as string | undefined)?.toUpperCase() ?? 'INFO') as LogLevel;
    write(level, logText(message));
    return isEmpty(input) ? message : input;
  },
);
