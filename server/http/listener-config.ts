/** How the HTTP listener treats slow clients and how long a stop waits for in-flight work, from the environment. */

export interface ListenerConfig {
  /** A client must send all its request headers within this time (`PIPEWORK_HEADERS_TIMEOUT_MS`). */
  headersTimeoutMs: number;
  /** A client must send its whole request, body included, within this time (`PIPEWORK_REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time (`PIPEWORK_KEEP_ALIVE_TIMEOUT_MS`). */
  keepAliveTimeoutMs: number;
  /** On SIGTERM, in-flight requests get this long to finish before they are cut (`PIPEWORK_SHUTDOWN_GRACE_MS`). */
  shutdownGraceMs: number;
}

export const DEFAULT_LISTENER_CONFIG: ListenerConfig = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  shutdownGraceMs: 15_000,
};

function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer of milliseconds, got '${raw}'`);
  return n;
}

export function loadListenerConfig(env: NodeJS.ProcessEnv): ListenerConfig {
  const d = DEFAULT_LISTENER_CONFIG;
  return {
    headersTimeoutMs: millis(env, 'PIPEWORK_HEADERS_TIMEOUT_MS', d.headersTimeoutMs),
    requestTimeoutMs: millis(env, 'PIPEWORK_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
    keepAliveTimeoutMs: millis(env, 'PIPEWORK_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs),
    shutdownGraceMs: millis(env, 'PIPEWORK_SHUTDOWN_GRACE_MS', d.shutdownGraceMs),
  };
}
