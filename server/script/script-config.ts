/** The script sandbox's settings: pool size and the limits of each run, from the environment. */

import { nonNegativeIntFrom, positiveIntFrom } from '../config-env';

export interface ScriptConfig {
  /** Worker threads that run scripts at the same time (`PIPEWORK_SCRIPT_WORKERS`). */
  workers: number;
  /** Workers one user holds at once (`PIPEWORK_SCRIPT_WORKERS_PER_USER`, default half the workers, at least 1). */
  workersPerUser?: number;
  /** Scripts of one user waiting for a worker; more fail with 429 (`PIPEWORK_SCRIPT_QUEUE_PER_USER`). */
  queuePerUser?: number;
  /**
   * How much lower than the server's the CPU priority of script workers is (`PIPEWORK_SCRIPT_NICENESS`, 0-19,
   * default 19, the lowest; Linux): looping scripts then take spare CPU, not the event loop's.
   */
  niceness?: number;
  /** QuickJS heap of one run (`PIPEWORK_SCRIPT_MEMORY`, bytes). */
  memoryBytes: number;
  /** QuickJS stack of one run (`PIPEWORK_SCRIPT_STACK`, bytes); deep recursion ends here. */
  stackBytes: number;
  /** Wall time of one run (`PIPEWORK_SCRIPT_MILLIS`). */
  timeoutMillis: number;
}

export function loadScriptConfig(env: NodeJS.ProcessEnv): ScriptConfig {
  const workers = positiveIntFrom(env, 'PIPEWORK_SCRIPT_WORKERS', 2);
  return {
    workers,
    workersPerUser: positiveIntFrom(
      env,
      'PIPEWORK_SCRIPT_WORKERS_PER_USER',
      Math.max(1, Math.floor(workers / 2)),
    ),
    queuePerUser: nonNegativeIntFrom(env, 'PIPEWORK_SCRIPT_QUEUE_PER_USER', 32),
    niceness: Math.min(19, nonNegativeIntFrom(env, 'PIPEWORK_SCRIPT_NICENESS', 19)),
    memoryBytes: positiveIntFrom(env, 'PIPEWORK_SCRIPT_MEMORY', 32 * 1024 * 1024),
    stackBytes: positiveIntFrom(env, 'PIPEWORK_SCRIPT_STACK', 256 * 1024),
    timeoutMillis: positiveIntFrom(env, 'PIPEWORK_SCRIPT_MILLIS', 5000),
  };
}
