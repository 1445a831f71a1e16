/**
 * A SQLite file as a data source: queries run in a worker thread (see sqlite-worker-source.ts), one at a
 * time, so a slow query neither blocks the server nor outlives its time limit: past it the worker is
 * ended and the next query starts a fresh one.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PipeworkError } from '../../shared/errors';
import type { DataSource, QueryLimits, QueryResult, SqlParams } from './data-source';
import type { DataSourceConfig } from './datasource-config';
import { SQLITE_WORKER_SOURCE } from './sqlite-worker-source';
import { toDriverValue } from './sql-values';

interface WorkerAnswer {
  id: number;
  columns?: string[];
  rows?: unknown[][];
  error?: { kind: 'refused' | 'readonly' | 'sql' | 'open'; message: string };
}

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

function cancelled(name: string): PipeworkError {
  return new PipeworkError('LIMIT_EXCEEDED', `The query on '${name}' was ended: its pipeline stopped.`, {
    datasource: name,
    limit: 'time',
  });
}

export class SqliteDataSource implements DataSource {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly config: DataSourceConfig) {}

  query(sql: string, params: SqlParams, limits: QueryLimits, signal?: AbortSignal): Promise<QueryResult> {
    const bound = Array.isArray(params)
      ? params.map((v) => toDriverValue(v, true))
      : Object.fromEntries(Object.entries(params).map(([k, v]) => [k, toDriverValue(v, true)]));
    const result = this.queue.then(() => this.ask(sql, bound, limits, signal));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private start(): Worker {
    const worker = new Worker(SQLITE_WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.config.location, writable: this.config.writable },
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private ask(
    sql: string,
    params: SqlParams,
    limits: QueryLimits,
    signal?: AbortSignal,
  ): Promise<QueryResult> {
    if (signal?.aborted) return Promise.reject(cancelled(this.config.name));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const name = this.config.name;
    return new Promise<QueryResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
      };
      // The pipeline gave up: end the query now, so the next one on this source need not wait for it.
      const onAbort = () => {
        done();
        this.stopWorker(worker);
        reject(cancelled(name));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        done();
        this.stopWorker(worker);
        reject(
          new PipeworkError(
            'LIMIT_EXCEEDED',
            `The query on '${name}' ran longer than ${limits.timeoutMillis} ms.`,
            {
              datasource: name,
              limit: 'time',
            },
          ),
        );
      }, limits.timeoutMillis);
      const onError = (error: Error) => {
        done();
        this.stopWorker(worker);
        reject(
          new PipeworkError('UPSTREAM_FAILED', `Data source '${name}' cannot be opened: ${error.message}`, {
            datasource: name,
          }),
        );
      };
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        done();
        if (answer.error) reject(this.errorOf(answer.error));
        else if (answer.rows!.length > limits.maxRows) {
          reject(
            new PipeworkError(
              'LIMIT_EXCEEDED',
              `The query on '${name}' returned more than ${limits.maxRows} rows; narrow it (LIMIT, WHERE).`,
              { datasource: name, limit: 'rows', maxRows: limits.maxRows },
            ),
          );
        } else resolve({ columns: answer.columns!, rows: answer.rows! });
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, sql, params, maxRows: limits.maxRows });
    });
  }

  private errorOf(error: NonNullable<WorkerAnswer['error']>): PipeworkError {
    const name = this.config.name;
    if (error.kind === 'readonly') {
      return new PipeworkError(
        'FORBIDDEN',
        `Data source '${name}' is read-only: ${error.message}. Writes need PIPEWORK_DATASOURCE_${name.toUpperCase()}_WRITE=true.`,
        { datasource: name },
      );
    }
    if (error.kind === 'refused') return new PipeworkError('FORBIDDEN', error.message, { datasource: name });
    return new PipeworkError('BAD_REQUEST', `The query failed on '${name}': ${error.message}`, {
      datasource: name,
    });
  }

  private stopWorker(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
