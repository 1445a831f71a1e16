/**
 * `log.list`: the log lines of the runs the caller may see, from the run records (docs/runs.md); with
 * `service: instance`, the recent log lines of this server instance (admins only; credentials never in them).
 */
import { isAdmin } from '../../../shared/auth';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { MAX_RECENT_LINES } from '../../logging/recent-logs';
import { runLogLines, runLogText } from '../../runs/run-log-lines';
import type { ServerServices } from '../../services';

const RUN_SERVICES = ['hub', 'runs'];

export const logList = defineCommand<ServerServices>(
  {
    name: 'log.list',
    effect: 'read',
    summary: 'Returns the last log lines of the caller’s runs (or of this server instance), as text or JSON.',
    description:
      'By default (`service` hub, runs or empty) the `log` lines of the runs the caller may see (their own; ' +
      'an admin’s: all), read from the run history: the runs whose steps were recorded (sampled, failed or ' +
      'traced ones), oldest line first. `runId` and `pipeline` narrow it to one run or one stored pipeline. ' +
      `\`service: instance\` reads the last ${MAX_RECENT_LINES} lines this server instance logged (admins ` +
      'only). `level`, `contains`, `runId` and `pipeline` are Pipework additions.',
    parameters: {
      service: {
        type: 'string',
        default: 'hub',
        description:
          "hub or runs (or empty): the runs' log lines; instance: this server's own lines (admins).",
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
      runId: { type: 'string', maxLength: 64, description: 'Only the lines of this run.' },
      pipeline: {
        type: 'string',
        maxLength: 1000,
        description: 'Only the runs of this stored pipeline key.',
      },
    },
    input: 'any',
    output: 'any',
  },
  async (ctx) => {
    const service = ctx.params.service;
    const lines = typeof ctx.params.lines === 'number' ? ctx.params.lines : 100;
    const level = typeof ctx.params.level === 'string' ? ctx.params.level : undefined;
    const contains = typeof ctx.params.contains === 'string' ? ctx.params.contains : undefined;
    const json = ctx.params.format === 'json';
    if (service === 'instance') {
      if (!ctx.principal || !isAdmin(ctx.principal)) {
        throw new PipeworkError('FORBIDDEN', "Only admins read this instance's own log lines.");
      }
      const found = ctx.services.recentLogs.list({ lines, level, contains });
      return json ? found.map((line) => JSON.parse(line) as unknown) : found.join('\n');
    }
    if (
      service !== undefined &&
      service !== null &&
      service !== '' &&
      !RUN_SERVICES.includes(String(service))
    ) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `There is no service '${String(service)}' here: hub (the runs' lines) or instance.`,
        { parameter: 'service' },
      );
    }
    if (!ctx.principal) return json ? [] : '';
    const found = await runLogLines(ctx.services.runs, ctx.principal, {
      lines,
      level,
      contains,
      runId: typeof ctx.params.runId === 'string' ? ctx.params.runId : undefined,
      pipelineKey: typeof ctx.params.pipeline === 'string' ? ctx.params.pipeline : undefined,
    });
    return json ? found : found.map(runLogText).join('\n');
  },
);
