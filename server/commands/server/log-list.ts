/** `log.list`: the recent log lines of this server instance (admins only; credentials never in them). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { MAX_RECENT_LINES } from '../../logging/recent-logs';
import type { ServerServices } from '../../services';

export const logList = defineCommand<ServerServices>(
  {
    name: 'log.list',
    effect: 'read',
    summary: 'Returns the last log lines of this server instance, as text or JSON.',
    description:
      `From a buffer of the last ${MAX_RECENT_LINES} lines in memory (per instance; the lines on stdout are ` +
      'the full log). `level` and `contains` are Pipework additions. Needs CAN_PIPE_log.list, which only admins have.',
    parameters: {
      service: {
        type: 'string',
        default: 'hub',
        description: "The service to print logs for: this server is the only one ('hub', or empty).",
      },
      lines: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_RECENT_LINES,
        default: 100,
        description: 'The number of lines to return.',
      },
      format: { type: 'string', enum: ['text', 'json'], default: 'text', description: 'text or json.' },
      level: {
        type: 'string',
        enum: ['trace', 'debug', 'info', 'warn', 'error', 'fatal'],
        description: 'Only lines of this level or above.',
      },
      contains: { type: 'string', maxLength: 200, description: 'Only lines containing this text.' },
    },
    input: 'any',
    output: 'any',
    permission: 'CAN_PIPE_log.list',
  },
  (ctx) => {
    const service = ctx.params.service;
    if (service !== undefined && service !== null && service !== '' && service !== 'hub') {
      throw new PipeworkError('PARAM_INVALID', `There is no service '${String(service)}' here: only 'hub'.`, {
        parameter: 'service',
      });
    }
    const lines = ctx.services.recentLogs.list({
      lines: typeof ctx.params.lines === 'number' ? ctx.params.lines : 100,
      level: typeof ctx.params.level === 'string' ? ctx.params.level : undefined,
      contains: typeof ctx.params.contains === 'string' ? ctx.params.contains : undefined,
    });
    if (ctx.params.format === 'json') return lines.map((line) => JSON.parse(line) as unknown);
    return lines.join('\n');
  },
);
