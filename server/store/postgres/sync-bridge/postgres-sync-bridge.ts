/**
 * Synchronous reads and the one synchronous write (`getSync`, `listSync`, `updateSync`) on PostgreSQL, for
 * the `@property` PEL utility: expressions evaluate synchronously, and a pg pool cannot answer at once. A
 * worker thread with its own small pool runs the asynchronous `PostgresPropertyStore` (the very same code,
 * so the same rows and write rules) while the calling thread waits on a shared flag (`blocking-channel.ts`).
 * Each call has a time limit (UPSTREAM_FAILED past it, never a hang); errors come back with their code.
 * Why not synckit: it keeps one never-terminated worker per file for the whole process, so `close()` could
 * not end the worker, and it rewrites the worker's NODE_OPTIONS and stdout.
 */
import { PipeworkError } from '../../../../shared/errors';
import type {
  HistoryBounds,
  Property,
  PropertyPatch,
  PropertyQuery,
  UpdateOptions,
  UpdateResult,
} from '../../../../shared/property';
import { currentEventOrigin } from '../../../events/event-context';
import { BridgeWorkerThread } from './bridge-worker-thread';
import {
  fromWireError,
  type BridgeConnection,
  type BridgeListQuery,
  type BridgeRequest,
  type BridgeWorkerSettings,
} from './bridge-protocol';

export interface PostgresSyncBridgeOptions {
  /** The database, as for the server's own pool (e.g. `{ connectionString }`); plain data only. */
  connection: BridgeConnection;
  /** Longest wait for one call, in milliseconds (default 5,000). */
  timeoutMillis?: number;
  /** Connections in the worker's pool (default 2: the calls come one at a time). */
  poolSize?: number;
  /** Longest wait for the worker to load and reach the database (default 30,000). */
  startTimeoutMillis?: number;
  /**
   * Give it when the store writes the event outbox (`outboxWriter` as `beforeCommit`): bridged writes then
   * record their events too, on the same NOTIFY channel (default `EVENTS_CHANNEL`).
   */
  outbox?: { channel?: string };
  /** The history bounds of the server's store, so bridged writes keep the same history. */
  history?: HistoryBounds;
}

export const SYNC_BRIDGE_TIMEOUT_MILLIS = 5_000;

/** A key as it appears in an error message: long ones cut. */
function shown(key: string): string {
  return key.length > 120 ? `${key.slice(0, 120)}...` : key;
}

export class PostgresSyncBridge {
  private closed = false;

  private constructor(
    private readonly settings: BridgeWorkerSettings,
    private thread: BridgeWorkerThread,
  ) {}

  get timeoutMillis(): number {
    return this.settings.timeoutMillis;
  }

  /** Starts the worker and waits until its pool has reached the database (UPSTREAM_FAILED when it cannot). */
  static async start(options: PostgresSyncBridgeOptions): Promise<PostgresSyncBridge> {
    const settings: BridgeWorkerSettings = {
      connection: options.connection,
      poolSize: options.poolSize ?? 2,
      timeoutMillis: options.timeoutMillis ?? SYNC_BRIDGE_TIMEOUT_MILLIS,
      ...(options.outbox ? { outbox: options.outbox } : {}),
      ...(options.history ? { history: options.history } : {}),
    };
    const thread = new BridgeWorkerThread(settings);
    try {
      await thread.ready(options.startTimeoutMillis ?? 30_000);
    } catch (error) {
      await thread.terminate();
      throw error;
    }
    return new PostgresSyncBridge(settings, thread);
  }

  /**
   * Ends a worker that timed out (a connection may hang for good), could not open its store, or crashed,
   * and starts a fresh one: it loads while the caller handles the error, and the next call waits for it.
   */
  private replaceThread(): void {
    void this.thread.terminate();
    this.thread = new BridgeWorkerThread(this.settings);
  }

  private call(request: BridgeRequest, what: string): unknown {
    if (this.closed) throw new Error(`${what}: the PostgreSQL sync bridge is closed.`);
    if (this.thread.failure) this.replaceThread();
    const { timeoutMillis } = this.settings;
    const answer = this.thread.call(request, timeoutMillis);
    if (!answer) {
      this.replaceThread();
      const outcome = request.op === 'update' ? ' The write may still be committed.' : '';
      throw new PipeworkError(
        'UPSTREAM_FAILED',
        `PostgreSQL did not answer ${what} within ${timeoutMillis} ms.${outcome}`,
        { timeoutMillis },
      );
    }
    if (answer.ok) return answer.value;
    if (answer.unusable) this.replaceThread();
    throw fromWireError(answer.error, what);
  }

  /** The store's `get`, answered at once; `now` is the calling store's clock. */
  getSync(key: string, now = Date.now()): Property | undefined {
    return this.call({ op: 'get', now, key }, `getSync('${shown(key)}')`) as Property | undefined;
  }

  /**
   * The store's `list`, answered at once. A filter function cannot cross to the worker: it is applied here,
   * and with a limit (which counts after the filter) ever longer prefixes of the listing are read until
   * enough keys pass or none are left, which gives the same answer as the store's own filtered scan.
   */
  listSync(query: PropertyQuery, now = Date.now()): Property[] {
    const pattern = typeof query.pattern === 'string' ? query.pattern : query.pattern.source;
    const base: BridgeListQuery = { pattern, scope: query.scope ?? 'all' };
    const what = `listSync('${shown(pattern)}')`;
    const list = (limit?: number) =>
      this.call(
        { op: 'list', now, query: limit === undefined ? base : { ...base, limit } },
        what,
      ) as Property[];
    const { filter, limit } = query;
    if (!filter) return list(limit);
    if (limit === undefined) return list().filter((p) => filter(p.key));
    for (let ask = Math.max(2 * limit, 100); ; ask *= 4) {
      const rows = list(ask);
      const kept = rows.filter((p) => filter(p.key));
      if (kept.length >= limit || rows.length < ask) return kept.slice(0, limit);
    }
  }

  /** The store's `update` (one transaction, its rules and errors), answered at once. */
  updateSync(key: string, patch: PropertyPatch, options: UpdateOptions = {}, now = Date.now()): UpdateResult {
    return this.call(
      { op: 'update', now, key, patch, options, ...currentEventOrigin() },
      `updateSync('${shown(key)}')`,
    ) as UpdateResult;
  }

  /** The first row of a read-only statement, answered at once (a writing statement fails). */
  rowSync<T>(sql: string, params: readonly unknown[] = []): T | undefined {
    return this.call({ op: 'row', sql, params: [...params] }, 'a row') as T | undefined;
  }

  /** Ends the worker's pool, then the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.thread.failure) this.thread.call({ op: 'close' }, this.settings.timeoutMillis);
    await this.thread.terminate();
  }
}
