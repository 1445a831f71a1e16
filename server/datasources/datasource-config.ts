/**
 * Named SQL data sources from the environment: `PIPEWORK_DATASOURCE_<NAME>_URL` (a postgres:// URL, or a
 * SQLite file as `sqlite:<path>` or a plain path), `PIPEWORK_DATASOURCE_<NAME>_WRITE=true` to allow
 * writes, and `PIPEWORK_DATASOURCE_<NAME>_SECRET=<name>` for a PostgreSQL source's user and password from a
 * username-password secret of the installation; `PIPEWORK_SQL_MAX_ROWS` and `PIPEWORK_SQL_TIMEOUT_MILLIS`
 * bound every query.
 */
import { resolve } from 'node:path';
import { positiveIntFrom } from '../config-env';

export type DataSourceKind = 'postgres' | 'sqlite';

export interface DataSourceConfig {
  /** Lower case, as `sql.query` names it (`PIPEWORK_DATASOURCE_REPORTS_URL` → `reports`). */
  name: string;
  kind: DataSourceKind;
  /** The PostgreSQL connection URL, or the absolute path of the SQLite file. */
  location: string;
  /** Writes are refused unless this is true. */
  writable: boolean;
  /** The installation's username-password secret the connection logs in with (PostgreSQL only). */
  secret?: string;
}

export interface SqlConfig {
  dataSources: Record<string, DataSourceConfig>;
  /** Rows one query may return; more is an error (LIMIT_EXCEEDED). */
  maxRows: number;
  /** Wall time of one statement. */
  timeoutMillis: number;
}

const ENTRY = /^PIPEWORK_DATASOURCE_([A-Z0-9_]+?)_(URL|WRITE|SECRET)$/;

function locate(name: string, url: string): { kind: DataSourceKind; location: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', location: url };
  if (/^sqlite:/i.test(url)) {
    const path = url.replace(/^sqlite:(\/\/(?=\/))?/i, '');
    if (path === '') throw new Error(`PIPEWORK_DATASOURCE_${name}_URL: 'sqlite:' needs a file path`);
    return { kind: 'sqlite', location: resolve(path) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new Error(
      `PIPEWORK_DATASOURCE_${name}_URL: only postgres:// URLs and SQLite files (sqlite:<path>) are supported`,
    );
  }
  return { kind: 'sqlite', location: resolve(url) };
}

/** Reads every data source of the environment; a WRITE without a URL is a configuration error. */
export function readSqlConfig(env: NodeJS.ProcessEnv): SqlConfig {
  const entries = {
    URL: new Map<string, string>(),
    WRITE: new Map<string, string>(),
    SECRET: new Map<string, string>(),
  };
  for (const [key, value] of Object.entries(env)) {
    const match = ENTRY.exec(key);
    if (!match || value === undefined) continue;
    entries[match[2] as keyof typeof entries].set(match[1]!, value);
  }
  const { URL: urls, WRITE: writes, SECRET: secrets } = entries;
  const dataSources: Record<string, DataSourceConfig> = {};
  for (const [name, url] of urls) {
    if (url.trim() === '') continue;
    const write = (writes.get(name) ?? '').trim().toLowerCase();
    if (write !== '' && write !== 'true' && write !== 'false') {
      throw new Error(`PIPEWORK_DATASOURCE_${name}_WRITE must be true or false, got '${write}'`);
    }
    const located = locate(name, url.trim());
    const secret = secrets.get(name)?.trim() || undefined;
    if (secret !== undefined && located.kind !== 'postgres') {
      throw new Error(
        `PIPEWORK_DATASOURCE_${name}_SECRET: only a PostgreSQL data source logs in with a secret`,
      );
    }
    dataSources[name.toLowerCase()] = {
      name: name.toLowerCase(),
      ...located,
      writable: write === 'true',
      ...(secret !== undefined && { secret }),
    };
  }
  for (const [setting, names] of [
    ['WRITE', writes],
    ['SECRET', secrets],
  ] as const) {
    for (const name of names.keys()) {
      if (!urls.has(name)) throw new Error(`PIPEWORK_DATASOURCE_${name}_${setting} is set without its _URL`);
    }
  }
  return {
    dataSources,
    maxRows: positiveIntFrom(env, 'PIPEWORK_SQL_MAX_ROWS', 10_000),
    timeoutMillis: positiveIntFrom(env, 'PIPEWORK_SQL_TIMEOUT_MILLIS', 30_000),
  };
}
