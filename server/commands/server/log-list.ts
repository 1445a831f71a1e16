/**
 * `log.list`: as the real product, the recent log lines of this server instance (service `hub`, the default;
 * admins only; credentials never in them); with `service: runs`, the log lines of the runs the caller may see,
 * from the run records (docs/runs.md).
 */
import { isAdmin } from '../../../shared/auth';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { MAX_RECENT_LINES } from '../../logging/recent-logs';
import { runLogLines, runLogText } from '../../runs/run-log-lines';
import type { ServerServices } from '../../services';

const INSTANCE_SERVICES = ['hub', 'instance'];

export const logList = defineCommand<ServerServices>(
  {
    name: 'log.list',
    effect: 'read',
    audience: 'user',
    summary: 'Returns the last log lines of this server instance (or of the caller’s runs), as text or JSON.',
    description:
      `By default (\`service\` hub, instance or empty) the last lines, at most ${MAX_RECENT_LINES}, this server ` +
      'instance logged, credentials scrubbed (admins only). With `service: runs`, the `log` lines of the runs ' +
      'the caller may see (their own; an admin’s: all), read from the run history: the runs whose steps were ' +
      'recorded (sampled, failed or traced ones), oldest line first; `runId` and `pipeline` narrow it to one ' +
      'run or one stored pipeline, and imply `service: runs` when no service is given. `runs`, `level`, ' +
      '`contains`, `runId` and `pipeline` are Pipework additions.',
    parameters: {
      service: {
        type: 'string',
        default: 'hub',
        description:
          "hub (or empty, or instance): this server's own lines (admins); runs: the runs' log lines.",
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
    const runId = typeof ctx.params.runId === 'string' ? ctx.params.runId : undefined;
    const pipelineKey = typeof ctx.params.pipeline === 'string' ? ctx.params.pipeline : undefined;
    const named =
      ctx.params.service === undefined || ctx.params.service === null ? '' : String(ctx.params.service);
    const service = named === '' ? (runId || pipelineKey ? 'runs' : 'hub') : named;
    const lines = typeof ctx.params.lines === 'number' ? ctx.params.lines : 100;
    const level = typeof ctx.params.level === 'string' ? ctx.params.level : undefined;
    const contains = typeof ctx.params.contains === 'string' ? ctx.params.contains : undefined;
    const json = ctx.params.format === 'json';
    if (INSTANCE_SERVICES.includes(service)) {
      if (!ctx.principal || !isAdmin(ctx.principal)) {
        throw new PipeworkError(
          'FORBIDDEN',
          "Only admins read this instance's own log lines; `service: runs` gives the lines of your runs.",
        );
      }
      const found = ctx.services.recentLogs.list({ lines, level, contains });
      return json ? found.map((line) => JSON.parse(line) as unknown) : found.join('\n');
    }
    if (service !== 'runs') {
      throw new PipeworkError(
        'PARAM_INVALID',
        `There is no service '${service}' here: hub (this server's lines, admins) or runs (your runs' lines).`,
        { parameter: 'service' },
      );
    }
    if (!ctx.principal) return json ? [] : '';
    const found = await runLogLines(ctx.services.runs, ctx.principal, {
      lines,
      level,
      contains,
      runId,
      pipelineKey,
    });
    return json ? found : found.map(runLogText).join('\n');
  },
);
