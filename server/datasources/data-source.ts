/** What `sql.query` needs of a data source, whatever the database behind it. */
import type { DataSourceConfig } from './datasource-config';

/** Bound parameters: a list (positional: `$1` / `?`) or a map (named: `:name`). */
export type SqlParams = unknown[] | Record<string, unknown>;

export interface QueryLimits {
  maxRows: number;
  timeoutMillis: number;
}

/** Rows as value lists in column order, so both answer shapes (objects or lists) can be built. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

export interface DataSource {
  readonly config: DataSourceConfig;
  /** `signal` ends the query early (the pipeline passed its time limit or its caller went away). */
  query(sql: string, params: SqlParams, limits: QueryLimits, signal?: AbortSignal): Promise<QueryResult>;
  close(): Promise<void>;
}
