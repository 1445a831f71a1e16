/** The configured data sources, each opened on first use and closed with the server. */
import { PipeworkError } from '../../shared/errors';
import type { DataSource, QueryResult, SqlParams } from './data-source';
import { readSqlConfig, type SqlConfig } from './datasource-config';
import { PostgresDataSource } from './postgres-data-source';
import { SqliteDataSource } from './sqlite-data-source';

export class DataSources {
  private readonly open = new Map<string, DataSource>();

  private readonly config: SqlConfig;

  /** Without a configuration (some tests build theirs by hand), there are no data sources. */
  constructor(config: SqlConfig | undefined) {
    this.config = config ?? readSqlConfig({});
  }

  names(): string[] {
    return Object.keys(this.config.dataSources).sort();
  }

  private get(rawName: string): DataSource {
    const name = rawName.trim().toLowerCase();
    let source = this.open.get(name);
    if (source) return source;
    const config = Object.prototype.hasOwnProperty.call(this.config.dataSources, name)
      ? this.config.dataSources[name]
      : undefined;
    if (!config) {
      const known = this.names();
      throw new PipeworkError(
        'NOT_FOUND',
        `Data source '${rawName}' is not configured (set PIPEWORK_DATASOURCE_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL). ${
          known.length ? `Configured: ${known.join(', ')}.` : 'None is configured.'
        }`,
        { parameter: 'datasource', datasource: rawName },
      );
    }
    source = config.kind === 'postgres' ? new PostgresDataSource(config) : new SqliteDataSource(config);
    this.open.set(name, source);
    return source;
  }

  query(datasource: string, sql: string, params: SqlParams, signal?: AbortSignal): Promise<QueryResult> {
    const { maxRows, timeoutMillis } = this.config;
    return this.get(datasource).query(sql, params, { maxRows, timeoutMillis }, signal);
  }

  async close(): Promise<void> {
    const sources = [...this.open.values()];
    this.open.clear();
    await Promise.all(sources.map((s) => s.close().catch(() => undefined)));
  }
}
