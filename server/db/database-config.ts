/**
 * Which database the server runs on. SQLite in the data folder is the default; `PIPEWORK_DATABASE_URL`
 * (`postgres://user:password@host:port/database`) selects PostgreSQL, which several instances share.
 */
import { positiveIntFrom } from '../config-env';

export interface PostgresDatabaseConfig {
  url: string;
  /** Connections in this instance's pool (`PIPEWORK_DATABASE_POOL_MAX`, default 10). */
  poolMax: number;
  /**
   * How long getting a connection may take before the request fails with UNAVAILABLE
   * (`PIPEWORK_DATABASE_CONNECT_TIMEOUT_MS`, default 5,000): a database host that drops packets must not hold
   * requests for the operating system's TCP timeout.
   */
  connectTimeoutMs: number;
}

export function loadPostgresDatabaseConfig(env: NodeJS.ProcessEnv): PostgresDatabaseConfig | undefined {
  const url = env.PIPEWORK_DATABASE_URL?.trim();
  if (!url) return undefined;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error('PIPEWORK_DATABASE_URL is not a URL (postgres://user@host:5432/db).');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`PIPEWORK_DATABASE_URL must be a postgres:// URL; '${protocol}' is not supported.`);
  }
  return {
    url,
    poolMax: positiveIntFrom(env, 'PIPEWORK_DATABASE_POOL_MAX', 10),
    connectTimeoutMs: positiveIntFrom(env, 'PIPEWORK_DATABASE_CONNECT_TIMEOUT_MS', 5_000),
  };
}
