/** How the HTTP listener treats slow clients and how long a stop waits for in-flight work, from the environment. */
import { positiveIntFrom } from '../config-env';

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

export function loadListenerConfig(env: NodeJS.ProcessEnv): ListenerConfig {
  const d = DEFAULT_LISTENER_CONFIG;
  return {
    headersTimeoutMs: positiveIntFrom(env, 'PIPEWORK_HEADERS_TIMEOUT_MS', d.headersTimeoutMs),
    requestTimeoutMs: positiveIntFrom(env, 'PIPEWORK_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
    keepAliveTimeoutMs: positiveIntFrom(env, 'PIPEWORK_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs),
    shutdownGraceMs: positiveIntFrom(env, 'PIPEWORK_SHUTDOWN_GRACE_MS', d.shutdownGraceMs),
  };
}
