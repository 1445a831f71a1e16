/** The configured data sources, each opened on first use and closed with the server. */
import { PipeworkError } from '../../shared/errors';
import type { SecretMask } from '../runs/secret-mask';
import type { DataSource, QueryResult, SqlParams } from './data-source';
import { readSqlConfig, type DataSourceConfig, type SqlConfig } from './datasource-config';
import { PostgresDataSource } from './postgres-data-source';
import { SqliteDataSource } from './sqlite-data-source';

/**
 * The user and password of an installation secret a data source names (`SecretService`), registered with
 * the mask of the run that opens the source.
 */
export type DataSourceCredentials = (
  mask: SecretMask,
  secret: string,
  configuredBy: string,
) => Promise<{ username: string; password: string }>;

/** SQLSTATEs of a refused login: the secret may have been replaced, so the source is opened anew next time. */
const LOGIN_REFUSED = new Set(['28P01', '28000']);

export class DataSources {
  private readonly open = new Map<string, Promise<DataSource>>();

  private readonly config: SqlConfig;

  /** Without a configuration (some tests build theirs by hand), there are no data sources. */
  constructor(
    config: SqlConfig | undefined,
    private readonly credentials?: DataSourceCredentials,
  ) {
    this.config = config ?? readSqlConfig({});
  }

  names(): string[] {
    return Object.keys(this.config.dataSources).sort();
  }

  private configOf(rawName: string): DataSourceConfig {
    const name = rawName.trim().toLowerCase();
    const config = Object.prototype.hasOwnProperty.call(this.config.dataSources, name)
      ? this.config.dataSources[name]
      : undefined;
    if (config) return config;
    const known = this.names();
    throw new PipeworkError(
      'NOT_FOUND',
      `Data source '${rawName}' is not configured (set PIPEWORK_DATASOURCE_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL). ${
        known.length ? `Configured: ${known.join(', ')}.` : 'None is configured.'
      }`,
      { parameter: 'datasource', datasource: rawName },
    );
  }

  /** The source, opened on first use (once, however many calls ask at the same time). */
  private get(config: DataSourceConfig, mask: SecretMask): Promise<DataSource> {
    let source = this.open.get(config.name);
    if (!source) {
      source = this.opened(config, mask);
      this.open.set(config.name, source);
      source.catch(() => this.open.delete(config.name));
    }
    return source;
  }

  private async opened(config: DataSourceConfig, mask: SecretMask): Promise<DataSource> {
    if (config.kind === 'sqlite') return new SqliteDataSource(config);
    if (config.secret === undefined) return new PostgresDataSource(config);
    const setting = `PIPEWORK_DATASOURCE_${config.name.toUpperCase()}_SECRET`;
    if (!this.credentials) throw new Error(`${setting} is set, but this service has no secrets`);
    return new PostgresDataSource(config, await this.credentials(mask, config.secret, setting));
  }

  /** `mask`: the calling run's, for the credentials of a source it opens. */
  async query(
    mask: SecretMask,
    datasource: string,
    sql: string,
    params: SqlParams,
    signal?: AbortSignal,
  ): Promise<QueryResult> {
    const { maxRows, timeoutMillis } = this.config;
    const config = this.configOf(datasource);
    const pending = this.get(config, mask);
    const source = await pending;
    try {
      return await source.query(sql, params, { maxRows, timeoutMillis }, signal);
    } catch (error) {
      const sqlState = error instanceof PipeworkError ? error.details.sqlState : undefined;
      if (
        typeof sqlState === 'string' &&
        LOGIN_REFUSED.has(sqlState) &&
        this.open.get(config.name) === pending
      ) {
        this.open.delete(config.name);
        void source.close().catch(() => undefined);
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    const sources = [...this.open.values()];
    this.open.clear();
    await Promise.all(sources.map((s) => s.then((source) => source.close()).catch(() => undefined)));
  }
}
