/** How much run history is kept and how async runs are limited (`PIPEWORK_RUNS_HISTORY`, ...). */
import { nonNegativeIntFrom, positiveIntFrom } from '../config-env';

export interface RunHistoryConfig {
  /** Record runs at all (`PIPEWORK_RUNS_HISTORY=off` turns recording off; async runs still work). */
  enabled: boolean;
  /** Share of successful runs whose step trace is kept, 0 to 1 (`PIPEWORK_RUNS_TRACE_SAMPLE`); failed ones always. */
  traceSample: number;
  /** Finished runs older than this are deleted (`PIPEWORK_RUNS_RETENTION_DAYS`). */
  retentionMillis: number;
  /** Per pipeline, only the newest this many finished runs are kept (`PIPEWORK_RUNS_KEEP_PER_PIPELINE`). */
  keepPerPipeline: number;
  /** Async runs of one pipeline at once (`PIPEWORK_ASYNC_PER_PIPELINE`). */
  asyncPerPipeline: number;
  /** Async runs of one user at once (`PIPEWORK_ASYNC_PER_USER`). */
  asyncPerUser: number;
  /** Async runs waiting on this instance; more are refused with 429 (`PIPEWORK_ASYNC_QUEUE`). */
  asyncQueue: number;
  /** How often recorded runs are written, in milliseconds (`PIPEWORK_RUNS_FLUSH_MILLIS`). */
  flushMillis: number;
}

function sampleFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.PIPEWORK_RUNS_TRACE_SAMPLE;
  if (raw === undefined || raw === '') return 0.1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new Error(`PIPEWORK_RUNS_TRACE_SAMPLE must be a number from 0 to 1, got '${raw}'`);
  }
  return n;
}

function enabledFrom(env: NodeJS.ProcessEnv): boolean {
  const raw = (env.PIPEWORK_RUNS_HISTORY ?? 'on').toLowerCase();
  if (raw === 'on' || raw === 'true' || raw === '') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new Error(`PIPEWORK_RUNS_HISTORY must be on or off, got '${raw}'`);
}

export function loadRunHistoryConfig(env: NodeJS.ProcessEnv): RunHistoryConfig {
  return {
    enabled: enabledFrom(env),
    traceSample: sampleFrom(env),
    retentionMillis: positiveIntFrom(env, 'PIPEWORK_RUNS_RETENTION_DAYS', 30) * 86_400_000,
    keepPerPipeline: positiveIntFrom(env, 'PIPEWORK_RUNS_KEEP_PER_PIPELINE', 1000),
    asyncPerPipeline: positiveIntFrom(env, 'PIPEWORK_ASYNC_PER_PIPELINE', 4),
    asyncPerUser: positiveIntFrom(env, 'PIPEWORK_ASYNC_PER_USER', 4),
    asyncQueue: nonNegativeIntFrom(env, 'PIPEWORK_ASYNC_QUEUE', 100),
    flushMillis: positiveIntFrom(env, 'PIPEWORK_RUNS_FLUSH_MILLIS', 100),
  };
}

export const DEFAULT_RUN_HISTORY: RunHistoryConfig = loadRunHistoryConfig({});
