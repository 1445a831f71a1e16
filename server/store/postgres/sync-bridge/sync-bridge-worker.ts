/**
 * The worker thread behind `PostgresSyncBridge`: its own small pg pool and an ordinary (asynchronous)
 * `PostgresPropertyStore` on it, so a bridged read or write runs exactly the store's code (the same rows to
 * Property, the same write transaction and rules). Requests are answered one at a time, each at the calling
 * store's clock; one whose caller has stopped waiting is skipped. When the store cannot open (the database
 * is unreachable), every call gets that error and the caller starts a fresh worker for the next one. With `outbox`, a write records its events
 * as the server's store does, at the caller's event depth. Bundled as dist/server/postgres-sync-worker.mjs.
 */
import pg from 'pg';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runInEventOrigin } from '../../../events/event-context';
import { outboxWriter } from '../../../events/postgres-event-outbox';
import { numericTypes } from '../../../db/sql/postgres-sql-port';
import { PostgresPropertyStore } from '../postgres-property-store';
import { inReadOnlyTransaction } from '../postgres-query-runner';
import { replyOnChannel, type ChannelRequest } from './blocking-channel';
import {
  toWireError,
  type BridgeAnswer,
  type BridgeReadiness,
  type BridgeRequest,
  type BridgeWorkerSettings,
} from './bridge-protocol';

const {
  port,
  flag: flagBuffer,
  settings,
} = workerData as {
  port: MessagePort;
  flag: SharedArrayBuffer;
  settings: BridgeWorkerSettings;
};
const flag = new Int32Array(flagBuffer);

/** The time of the request being answered: the calling store's clock, not this thread's. */
let now = Date.now();

const pool = new pg.Pool({
  application_name: 'pipework-sync-bridge',
  ...settings.connection,
  max: settings.poolSize,
  connectionTimeoutMillis: settings.timeoutMillis,
});
// A pooled connection that drops while idle (a restart, a network cut) is replaced on the next call; without
// a listener the pool's 'error' event would end the thread.
pool.on('error', () => undefined);

async function perform(store: PostgresPropertyStore, request: BridgeRequest): Promise<unknown> {
  switch (request.op) {
    case 'get':
      return store.get(request.key);
    case 'list':
      return store.list(request.query);
    case 'update':
      return runInEventOrigin({ depth: request.depth, cascade: request.cascade ?? null }, () =>
        store.update(request.key, request.patch, request.options),
      );
    case 'row':
      return readRow(request.sql, request.params);
    case 'close':
      return store.close();
  }
}

/** A row of a statement run read-only: nothing a caller sends through here can write. */
async function readRow(sql: string, params: unknown[]): Promise<unknown> {
  return inReadOnlyTransaction(pool, async (client) => {
    const result = await client.query({ text: sql, values: params, types: numericTypes });
    return result.rows[0];
  });
}

/** The store once opened (migrations checked), or why it could not be. */
const opening: Promise<PostgresPropertyStore> = PostgresPropertyStore.open(pool, {
  clock: () => now,
  ownsPool: true,
  history: settings.history,
  beforeCommit: settings.outbox
    ? outboxWriter({ clock: () => now, channel: settings.outbox.channel })
    : undefined,
});

/** The answer to one request, or undefined when its caller has stopped waiting. */
async function answerTo(request: BridgeRequest, deadline: number): Promise<BridgeAnswer | undefined> {
  let store: PostgresPropertyStore;
  try {
    store = await opening;
  } catch (error) {
    return { ok: false, error: toWireError(error), unusable: true };
  }
  if (request.op !== 'close') {
    if (Date.now() > deadline) return undefined;
    if ('now' in request) now = request.now;
  }
  try {
    return { ok: true, value: await perform(store, request) };
  } catch (error) {
    return { ok: false, error: toWireError(error) };
  }
}

async function answer({ id, deadline, request }: ChannelRequest<BridgeRequest>): Promise<void> {
  const reply = await answerTo(request, deadline);
  if (reply) replyOnChannel(port, flag, id, reply);
  // Closed: with the pool ended and the port closed, nothing keeps the thread alive.
  if (request.op === 'close') port.close();
}

// Requests wait here while the store opens, then are answered in order.
let queue = Promise.resolve();
port.on('message', (message: ChannelRequest<BridgeRequest>) => {
  queue = queue.then(() => answer(message));
});
opening.then(
  () => parentPort!.postMessage({ ready: true } satisfies BridgeReadiness),
  async (error: unknown) => {
    parentPort!.postMessage({ ready: false, error: toWireError(error) } satisfies BridgeReadiness);
    await pool.end().catch(() => undefined);
  },
);
