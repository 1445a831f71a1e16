/**
 * The worker thread behind `PostgresSyncBridge`: its own small pg pool and an ordinary (asynchronous)
 * `PostgresPropertyStore` on it, so a bridged read or write runs exactly the store's code (the same rows to
 * Property, the same write transaction and rules). Requests are answered one at a time, each at the calling
 * store's clock; one whose caller has stopped waiting is skipped. With `outbox`, a write records its events
 * as the server's store does, at the caller's event depth. Bundled as dist/server/postgres-sync-worker.mjs.
 */
import pg from 'pg';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runAtEventDepth } from '../../../events/event-context';
import { outboxWriter } from '../../../events/postgres-event-outbox';
import { PostgresPropertyStore } from '../postgres-property-store';
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
      return runAtEventDepth(request.depth, () => store.update(request.key, request.patch, request.options));
    case 'close':
      return store.close();
  }
}

async function answer(store: PostgresPropertyStore, message: ChannelRequest<BridgeRequest>): Promise<void> {
  const { id, deadline, request } = message;
  if (request.op !== 'close') {
    if (Date.now() > deadline) return;
    now = request.now;
  }
  let reply: BridgeAnswer;
  try {
    reply = { ok: true, value: await perform(store, request) };
  } catch (error) {
    reply = { ok: false, error: toWireError(error) };
  }
  replyOnChannel(port, flag, id, reply);
  // Closed: with the pool ended and the port closed, nothing keeps the thread alive.
  if (request.op === 'close') port.close();
}

async function start(): Promise<void> {
  let store: PostgresPropertyStore;
  try {
    const clock = () => now;
    const { outbox } = settings;
    const beforeCommit = outbox ? outboxWriter({ clock, channel: outbox.channel }) : undefined;
    store = await PostgresPropertyStore.open(pool, { clock, ownsPool: true, beforeCommit });
  } catch (error) {
    parentPort!.postMessage({ ready: false, error: toWireError(error) } satisfies BridgeReadiness);
    await pool.end().catch(() => undefined);
    port.close();
    return;
  }
  let queue = Promise.resolve();
  port.on('message', (message: ChannelRequest<BridgeRequest>) => {
    queue = queue.then(() => answer(store, message));
  });
  parentPort!.postMessage({ ready: true } satisfies BridgeReadiness);
}

await start();
