/** Verbs of the run history: `pi runs` (the list, or one run with its steps) and `pi logs <run>`. */
import { endpointUrl, getRun, listRuns, type ListRunsQuery, type RunPage } from '../../shared/api';
import type { RunDetail } from '../../shared/runs/run-wire';
import { send } from './cli-client';
import type { Register } from './cli-context';

const when = (millis: number): string => new Date(millis).toISOString().replace('T', ' ').slice(0, 19);

export const registerRunsVerbs: Register = (program, action) => {
  program
    .command('runs')
    .description('List recorded runs (newest first), or show one run with its steps')
    .argument('[id]', 'a run id: show that run')
    .option('-p, --pipeline <key>', 'only runs of this stored pipeline')
    .option('-s, --status <status>', 'queued, running, succeeded, failed or cancelled')
    .option('--trigger <kind>', 'http, stored, cli, workbench, pipeline, event, job, webhook or async')
    .option('-u, --user <name>', "only this user's runs (admins)")
    .option('--since <time>', 'created at or after (ISO date or epoch millis)')
    .option('-q, --query <text>', 'text in the input or the error')
    .option('-n, --limit <n>', 'how many (at most 500)', '20')
    .action(
      action(async (ctx, id: string | undefined, options: Record<string, string | undefined>) => {
        const settings = ctx.settings();
        if (id !== undefined) {
          const run = (await send(settings, endpointUrl(getRun, { id }))).json<RunDetail>();
          if (ctx.out.json) return ctx.out.data(run);
          ctx.out.line(
            `${run.id}  ${run.status}  ${run.trigger.kind}  ${run.pipelineKey ?? `inline ${run.pipelineHash}`}`,
          );
          if (run.error) {
            const at =
              run.error.line === undefined ? '' : ` (line ${run.error.line}, column ${run.error.column})`;
            ctx.out.line(`${run.error.code}: ${run.error.message}${at}`);
          }
          ctx.out.table(
            ['step', 'command', 'ms', 'result'],
            (run.steps ?? []).map((s) => [
              String(s.index + 1),
              s.command,
              String(s.durationMs),
              s.error ? s.error.code : 'ok',
            ]),
          );
          return;
        }
        // Given as the user typed them: the server checks them (an unknown status names the ones there are).
        const query = {
          limit: options.limit ?? '20',
          pipeline: options.pipeline,
          status: options.status,
          trigger: options.trigger,
          user: options.user,
          from: options.since,
          q: options.query,
        } as Record<keyof ListRunsQuery, string | undefined>;
        const page = (
          await send(settings, endpointUrl(listRuns, {}, query as Partial<ListRunsQuery>))
        ).json<RunPage>();
        if (ctx.out.json) return ctx.out.data(page);
        ctx.out.table(
          ['run', 'status', 'trigger', 'pipeline', 'user', 'created', 'ms', 'error'],
          page.runs.map((r) => [
            r.id,
            r.status,
            r.trigger.kind,
            r.pipelineKey ?? 'inline',
            r.username ?? '',
            when(r.created),
            r.durationMs === null ? '' : String(r.durationMs),
            r.error ? `${r.error.code}: ${r.error.message}`.slice(0, 60) : '',
          ]),
        );
        ctx.out.note(`${page.runs.length} of ${page.total} runs`);
      }),
    );

  program
    .command('logs')
    .description("Print a recorded run's log lines, step by step")
    .argument('<id>', 'the run id')
    .action(
      action(async (ctx, id: string) => {
        const run = (await send(ctx.settings(), endpointUrl(getRun, { id }))).json<RunDetail>();
        const lines = (run.steps ?? []).flatMap((s) =>
          s.logs.map((log) => ({
            step: s.index + 1,
            command: s.command,
            level: log.level,
            message: log.message,
          })),
        );
        if (ctx.out.json)
          return ctx.out.data({ runId: run.id, status: run.status, traced: run.steps !== null, lines });
        if (run.steps === null)
          ctx.out.note('This run succeeded without a recorded trace (not sampled): no log lines kept.');
        for (const l of lines) ctx.out.line(`${l.level.padEnd(5)} step ${l.step} ${l.command}: ${l.message}`);
      }),
    );
};
