/** The script sandbox's settings: pool size and the limits of each run, from the environment. */

import { positiveIntFrom } from '../config-env';

export interface ScriptConfig {
  /** Worker threads that run scripts at the same time (`PIPEWORK_SCRIPT_WORKERS`). */
  workers: number;
  /** QuickJS heap of one run (`PIPEWORK_SCRIPT_MEMORY`, bytes). */
  memoryBytes: number;
  /** QuickJS stack of one run (`PIPEWORK_SCRIPT_STACK`, bytes); deep recursion ends here. */
  stackBytes: number;
  /** Wall time of one run (`PIPEWORK_SCRIPT_MILLIS`). */
  timeoutMillis: number;
}

export function loadScriptConfig(env: NodeJS.ProcessEnv): ScriptConfig {
  return {
    workers: positiveIntFrom(env, 'PIPEWORK_SCRIPT_WORKERS', 2),
    memoryBytes: positiveIntFrom(env, 'PIPEWORK_SCRIPT_MEMORY', 32 * 1024 * 1024),
    stackBytes: positiveIntFrom(env, 'PIPEWORK_SCRIPT_STACK', 256 * 1024),
    timeoutMillis: positiveIntFrom(env, 'PIPEWORK_SCRIPT_MILLIS', 5000),
  };
}
