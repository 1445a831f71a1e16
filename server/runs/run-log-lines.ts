/**
 * The log lines of recorded runs, as `log.list` and `pi logs` read them: the `log` lines of each recorded
 * step (runs whose steps were kept: sampled, failed, or traced), already redacted when recorded.
 */
import type { Principal } from '../../shared/auth';
import type { RunDetail } from './run-records';
import type { RunService } from './run-service';

export interface RunLogLine {
  /** When the run started (the steps' lines carry no time of their own). */
  time: number;
  runId: string;
  pipelineKey: string | null;
  trigger: string;
  stepIndex: number;
  command: string;
  level: string;
  message: string;
}

export interface RunLogQuery {
  lines: number;
  runId?: string;
  pipelineKey?: string;
  /** Lowest level: trace, debug, info, warn, error. */
  level?: string;
  /** Only lines containing this text (any case). */
  contains?: string;
}

const LEVEL_RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
/** Runs read at most per call: a bound on the work, whatever `lines` asks; read a page at a time. */
const MAX_RUNS_READ = 200;
const RUNS_PER_PAGE = 20;

const rank = (level: string): number => LEVEL_RANK[level.toLowerCase()] ?? LEVEL_RANK.info!;

function linesOf(run: RunDetail): RunLogLine[] {
  return (run.steps ?? []).flatMap((step) =>
    step.logs.map((log) => ({
      time: run.started ?? run.created,
      runId: run.id,
      pipelineKey: run.pipelineKey,
      trigger: run.trigger.kind,
      stepIndex: step.index,
      command: step.command,
      level: log.level.toUpperCase(),
      message: log.message,
    })),
  );
}

/** The last `lines` log lines of the runs the principal may see, oldest first. */
export async function runLogLines(
  runs: RunService,
  principal: Principal,
  query: RunLogQuery,
): Promise<RunLogLine[]> {
  const min = query.level === undefined ? 0 : rank(query.level);
  const needle = query.contains?.toLowerCase();
  const picked: RunLogLine[] = [];
  // Newest run first, a page of runs at a time; within a run the last line first: the newest lines are kept.
  for (let offset = 0; offset < MAX_RUNS_READ && picked.length < query.lines; offset += RUNS_PER_PAGE) {
    const page = query.runId
      ? [await runs.get(principal, query.runId)]
      : await runs.details(principal, { pipelineKey: query.pipelineKey, limit: RUNS_PER_PAGE, offset });
    for (const run of page) {
      for (const line of linesOf(run).reverse()) {
        if (picked.length >= query.lines) break;
        if (rank(line.level) < min) continue;
        if (needle !== undefined && !line.message.toLowerCase().includes(needle)) continue;
        picked.push(line);
      }
    }
    if (query.runId || page.length < RUNS_PER_PAGE) break;
  }
  return picked.reverse();
}

/** One line as text: time, level, which run and step, the message. */
export function runLogText(line: RunLogLine): string {
  const pipeline = line.pipelineKey ?? 'inline';
  return `${new Date(line.time).toISOString()} ${line.level} [${pipeline} ${line.runId}] ${line.command}#${line.stepIndex}: ${line.message}`;
}
