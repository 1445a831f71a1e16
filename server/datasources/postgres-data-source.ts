/**
 * A PostgreSQL data source through `pg`: one pool per source; every query runs in its own transaction
 * (READ ONLY unless the source allows writes, and the session default is read-only too), with a
 * statement timeout, the extended protocol (one statement, values bound, never spliced), and at most
 * `maxRows + 1` rows fetched through a cursor where the statement allows one.
 */
import type pg from 'pg';
import { pgDriver } from '../db/pg-driver';
import { PipeworkError } from '../../shared/errors';
import type { DataSource, QueryLimits, QueryResult, SqlParams } from './data-source';
import type { DataSourceConfig } from './datasource-config';
import { namedValues, toPositional } from './named-placeholders';
import { toDriverValue } from './sql-values';

/** SQLSTATEs of a statement a cursor cannot hold (INSERT, SHOW, a data-modifying WITH, ...). */
const NOT_CURSORABLE = new Set(['42601', '0A000']);

/**
 * Rows as lists, always the extended protocol: one statement per call, so a query text can never carry
 * a second statement (`...; COMMIT; DROP ...`), with or without parameters. (`queryMode` is missing
 * from the driver's type declarations.)
 */
function extended(text: string, values: unknown[]): pg.QueryArrayConfig {
  const config = { text, values, rowMode: 'array' as const, queryMode: 'extended' };
  return config;
}

function isPgError(error: unknown): error is Error & { code?: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

function sqlError(source: string, error: unknown, limits: QueryLimits): unknown {
  if (error instanceof PipeworkError || !isPgError(error)) return error;
  const details = { datasource: source, sqlState: error.code };
  const code = error.code ?? '';
  if (code === '57014') {
    return new PipeworkError(
      'LIMIT_EXCEEDED',
      `The query on '${source}' ran longer than ${limits.timeoutMillis} ms.`,
      { ...details, limit: 'time' },
    );
  }
  if (code === '25006') {
    return new PipeworkError(
      'FORBIDDEN',
      `Data source '${source}' is read-only: ${error.message}. Writes need PIPEWORK_DATASOURCE_${source.toUpperCase()}_WRITE=true.`,
      details,
    );
  }
  if (/^(08|28|53|57P|3D)/.test(code) || /^E[A-Z]+$/.test(code)) {
    return new PipeworkError(
      'UPSTREAM_FAILED',
      `Data source '${source}' is unreachable: ${error.message}`,
      details,
    );
  }
  return new PipeworkError('BAD_REQUEST', `The query failed on '${source}': ${error.message}`, details);
}

/** The URL with the secret's user and password in place of its own (the driver lets the URL win over fields). */
function loggedIn(location: string, login: { username: string; password: string } | undefined): string {
  if (!login) return location;
  const url = new URL(location);
  url.username = encodeURIComponent(login.username);
  url.password = encodeURIComponent(login.password);
  return url.toString();
}

export class PostgresDataSource implements DataSource {
  private readonly pool: pg.Pool;

  /** `login`: the user and password of the source's secret, in place of the URL's. */
  constructor(
    readonly config: DataSourceConfig,
    private readonly login?: { username: string; password: string },
  ) {
    this.pool = new (pgDriver().Pool)({
      connectionString: loggedIn(config.location, login),
      max: 5,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      options: config.writable ? undefined : '-c default_transaction_read_only=on',
    });
    // An idle connection that breaks is dropped by the pool; the next query opens another.
    this.pool.on('error', () => {});
  }

  async query(
    sql: string,
    params: SqlParams,
    limits: QueryLimits,
    signal?: AbortSignal,
  ): Promise<QueryResult> {
    const { text, values } = this.bind(sql, params);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw sqlError(this.config.name, error, limits);
    }
    let reusable = true;
    // The pipeline gave up: cancel the running statement on the server rather than let it run to its timeout.
    // Its connection is then dropped, not pooled, so the cancel can never reach another query.
    const onAbort = () => {
      reusable = false;
      void this.cancel(client);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) onAbort();
      await client.query(this.config.writable ? 'BEGIN' : 'BEGIN READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${Math.floor(limits.timeoutMillis)}`);
      const result = await this.run(client, text, values, limits.maxRows);
      await client.query('COMMIT');
      if (result.rows.length > limits.maxRows) {
        throw new PipeworkError(
          'LIMIT_EXCEEDED',
          `The query on '${this.config.name}' returned more than ${limits.maxRows} rows; narrow it (LIMIT, WHERE).`,
          { datasource: this.config.name, limit: 'rows', maxRows: limits.maxRows },
        );
      }
      return {
        columns: result.fields.map((f) => f.name),
        rows: result.rows as unknown[][],
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        reusable = false;
      });
      throw sqlError(this.config.name, error, limits);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Whatever the statement changed in the session (SET, PREPARE, temp tables) ends with it.
      await client.query('DISCARD ALL').catch(() => {
        reusable = false;
      });
      client.release(!reusable);
    }
  }

  private bind(sql: string, params: SqlParams): { text: string; values: unknown[] } {
    if (Array.isArray(params)) return { text: sql, values: params.map((v) => toDriverValue(v, false)) };
    const { text, names } = toPositional(sql);
    return { text, values: namedValues(names, params).map((v) => toDriverValue(v, false)) };
  }

  /** Through a cursor (at most maxRows + 1 rows leave the server) when the statement allows one. */
  private async run(client: pg.PoolClient, text: string, values: unknown[], maxRows: number) {
    await client.query('SAVEPOINT pipework_cursor');
    try {
      await client.query(extended(`DECLARE pipework_rows NO SCROLL CURSOR FOR ${text}`, values));
    } catch (error) {
      if (!isPgError(error) || !NOT_CURSORABLE.has(error.code ?? '')) throw error;
      await client.query('ROLLBACK TO SAVEPOINT pipework_cursor');
      return client.query<unknown[]>(extended(text, values));
    }
    return client.query<unknown[]>(extended(`FETCH FORWARD ${maxRows + 1} FROM pipework_rows`, []));
  }

  /** Asks the server, on a connection of its own, to cancel what the client's backend is running. */
  private async cancel(client: pg.PoolClient): Promise<void> {
    const pid = (client as unknown as { processID?: number }).processID;
    if (typeof pid !== 'number') return;
    const canceller = new (pgDriver().Client)({
      connectionString: loggedIn(this.config.location, this.login),
      connectionTimeoutMillis: 5_000,
    });
    canceller.on('error', () => {});
    try {
      await canceller.connect();
      await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // The statement's own timeout still ends it.
    } finally {
      await canceller.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
