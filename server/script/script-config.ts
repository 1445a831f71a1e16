/** The script sandbox's settings: pool size and the limits of each run, from the environment. */

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

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return n;
}

export function loadScriptConfig(env: NodeJS.ProcessEnv): ScriptConfig {
  return {
    workers: positiveInt(env, 'PIPEWORK_SCRIPT_WORKERS', 2),
    memoryBytes: positiveInt(env, 'PIPEWORK_SCRIPT_MEMORY', 32 * 1024 * 1024),
    stackBytes: positiveInt(env, 'PIPEWORK_SCRIPT_STACK', 256 * 1024),
    timeoutMillis: positiveInt(env, 'PIPEWORK_SCRIPT_MILLIS', 5000),
  };
}
