/** How many pipeline runs each user and everyone together may have at once, and how many may wait. */
import { nonNegativeIntFrom, positiveIntFrom } from '../config-env';

export interface RunLimitsConfig {
  /** Top-level runs of one user at once (`PIPEWORK_RUNS_PER_USER`). */
  perUser: number;
  /** Top-level runs of all users at once (`PIPEWORK_RUNS_TOTAL`). */
  total: number;
  /** Runs of one user waiting for a slot; more are refused with 429 (`PIPEWORK_RUN_QUEUE_PER_USER`). */
  queuePerUser: number;
  /** Longest wait for a slot (`PIPEWORK_RUN_QUEUE_MILLIS`); the wait also counts against the run's time limit. */
  queueMillis: number;
}

export function loadRunLimitsConfig(env: NodeJS.ProcessEnv): RunLimitsConfig {
  return {
    perUser: positiveIntFrom(env, 'PIPEWORK_RUNS_PER_USER', 8),
    total: positiveIntFrom(env, 'PIPEWORK_RUNS_TOTAL', 64),
    queuePerUser: nonNegativeIntFrom(env, 'PIPEWORK_RUN_QUEUE_PER_USER', 100),
    queueMillis: nonNegativeIntFrom(env, 'PIPEWORK_RUN_QUEUE_MILLIS', 30_000),
  };
}

export const DEFAULT_RUN_LIMITS: RunLimitsConfig = loadRunLimitsConfig({});
