/**
 * Synchronous reads and the one synchronous write (`getSync`, `listSync`, `updateSync`) on PostgreSQL, for
 * the `@property` PEL utility: expressions evaluate synchronously, and a pg pool cannot answer at once. A
 * worker thread with its own small pool runs the asynchronous `PostgresPropertyStore` (the very same code,
 * so the same rows and write rules) while the calling thread waits on a shared flag (`blocking-channel.ts`).
 * Each call has a time limit (UPSTREAM_FAILED past it, never a hang); errors come back with their code.
 * Why not synckit: it keeps one never-terminated worker per file for the whole process, so `close()` could
 * not end the worker, and it rewrites the worker's NODE_OPTIONS and stdout.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { PipeworkError } from '../../../../shared/errors';
import { currentEventDepth } from '../../../events/event-context';
import type {
  Property,
  PropertyPatch,
  PropertyQuery,
  UpdateOptions,
  UpdateResult,
} from '../../../../shared/property';
import { BlockingChannel, createChannelFlag } from './blocking-channel';
import {
  fromWireError,
  type BridgeAnswer,
  type BridgeConnection,
  type BridgeListQuery,
  type BridgeReadiness,
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
}

export const SYNC_BRIDGE_TIMEOUT_MILLIS = 5_000;

/** The bundled worker beside the bundle, else the TypeScript source run through tsx (tests, `tsx`). */
function workerFile(): string {
  const bundled = fileURLToPath(new URL('./postgres-sync-worker.mjs', import.meta.url));
  if (existsSync(bundled)) return bundled;
  const source = fileURLToPath(new URL('./sync-bridge-worker-source.mjs', import.meta.url));
  if (existsSync(source)) return source;
  // Bundled somewhere without the worker beside it: the sources under the project root.
  let dir = dirname(source);
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'server', 'store', 'postgres', 'sync-bridge', 'sync-bridge-worker-source.mjs');
}

/** A key as it appears in an error message: long ones cut. */
function shown(key: string): string {
  return key.length > 120 ? `${key.slice(0, 120)}...` : key;
}

/** Waits for the worker's first message: ready, or the reason it could not start. */
function readiness(worker: Worker, timeoutMillis: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new PipeworkError(
            'UPSTREAM_FAILED',
            `The PostgreSQL sync bridge did not start within ${timeoutMillis} ms.`,
          ),
        ),
      timeoutMillis,
    );
    const settle = (error?: Error) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', settle).off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (m: BridgeReadiness) =>
      settle(m.ready ? undefined : fromWireError(m.error, 'the start of the sync bridge'));
    const onExit = (code: number) => settle(new Error(`The sync-bridge worker stopped at start (${code}).`));
    worker.on('message', onMessage).on('error', settle).on('exit', onExit);
  });
}

export class PostgresSyncBridge {
  private closed = false;
  /** Why the worker stopped on its own, once it has. */
  private failure: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly channel: BlockingChannel<BridgeRequest, BridgeAnswer>,
    readonly timeoutMillis: number,
  ) {
    worker.on('error', (error) => (this.failure ??= error));
    worker.on('exit', (code) => (this.failure ??= new Error(`The sync-bridge worker stopped (${code}).`)));
  }

  /** Starts the worker and waits until its pool has reached the database (UPSTREAM_FAILED when it cannot). */
  static async start(options: PostgresSyncBridgeOptions): Promise<PostgresSyncBridge> {
    const timeoutMillis = options.timeoutMillis ?? SYNC_BRIDGE_TIMEOUT_MILLIS;
    const settings: BridgeWorkerSettings = {
      connection: options.connection,
      poolSize: options.poolSize ?? 2,
      timeoutMillis,
      ...(options.outbox ? { outbox: options.outbox } : {}),
    };
    const flag = createChannelFlag();
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(workerFile(), {
      workerData: { port: port2, flag: flag.buffer, settings },
      transferList: [port2],
    });
    try {
      await readiness(worker, options.startTimeoutMillis ?? 30_000);
    } catch (error) {
      await worker.terminate();
      port1.close();
      throw error;
    }
    // An idle bridge keeps nobody alive; `close()` ends it.
    worker.unref();
    port1.unref();
    return new PostgresSyncBridge(worker, new BlockingChannel(port1, flag), timeoutMillis);
  }

  private call(request: BridgeRequest, what: string): unknown {
    if (this.closed) throw new Error(`${what}: the PostgreSQL sync bridge is closed.`);
    if (this.failure) throw new Error(`${what}: ${this.failure.message}`);
    const reply = this.channel.call(request, this.timeoutMillis);
    if (!reply) {
      const outcome = request.op === 'update' ? ' The write may still be committed.' : '';
      throw new PipeworkError(
        'UPSTREAM_FAILED',
        `PostgreSQL did not answer ${what} within ${this.timeoutMillis} ms.${outcome}`,
        { timeoutMillis: this.timeoutMillis },
      );
    }
    if (!reply.answer.ok) throw fromWireError(reply.answer.error, what);
    return reply.answer.value;
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
      { op: 'update', now, key, patch, options, depth: currentEventDepth() },
      `updateSync('${shown(key)}')`,
    ) as UpdateResult;
  }

  /** Ends the worker's pool, then the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.failure) this.channel.call({ op: 'close' }, this.timeoutMillis);
    await this.worker.terminate();
  }
}
