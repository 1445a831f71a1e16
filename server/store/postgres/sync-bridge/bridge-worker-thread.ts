/**
 * One sync-bridge worker as the calling thread holds it: the thread, the blocking channel to it, and whether
 * it stopped on its own. It loads the bundled worker beside the server bundle (`scripts/build-server.mjs`
 * puts it there), else the TypeScript source through tsx (vitest, `tsx` runs).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { PipeworkError } from '../../../../shared/errors';
import { BlockingChannel, createChannelFlag } from './blocking-channel';
import {
  fromWireError,
  type BridgeAnswer,
  type BridgeReadiness,
  type BridgeRequest,
  type BridgeWorkerSettings,
} from './bridge-protocol';

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

export class BridgeWorkerThread {
  /** Why the thread stopped on its own, once it has (a crash): the bridge then starts another. */
  failure: Error | undefined;
  private readonly worker: Worker;
  private readonly channel: BlockingChannel<BridgeRequest, BridgeAnswer>;

  /** Starts the thread; it opens its store in the background and answers calls once it has. */
  constructor(settings: BridgeWorkerSettings) {
    const flag = createChannelFlag();
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(workerFile(), {
      workerData: { port: port2, flag: flag.buffer, settings },
      transferList: [port2],
    });
    this.channel = new BlockingChannel(port1, flag);
    // An idle bridge keeps nobody alive; its owner ends it with `terminate`.
    this.worker.unref();
    port1.unref();
    this.worker.on('error', (error) => (this.failure ??= error));
    this.worker.on(
      'exit',
      (code) => (this.failure ??= new Error(`The sync-bridge worker stopped (${code}).`)),
    );
  }

  /** Waits until the thread's store is open: UPSTREAM_FAILED (or the database's error) when it cannot be. */
  ready(timeoutMillis: number): Promise<void> {
    const worker = this.worker;
    worker.ref();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          settle(
            new PipeworkError(
              'UPSTREAM_FAILED',
              `The PostgreSQL sync bridge did not start within ${timeoutMillis} ms.`,
            ),
          ),
        timeoutMillis,
      );
      const onMessage = (m: BridgeReadiness) =>
        settle(m.ready ? undefined : fromWireError(m.error, 'the start of the sync bridge'));
      const onExit = (code: number) =>
        settle(new Error(`The sync-bridge worker stopped at start (${code}).`));
      function settle(error?: Error) {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', settle).off('exit', onExit);
        worker.unref();
        if (error) reject(error);
        else resolve();
      }
      worker.on('message', onMessage).on('error', settle).on('exit', onExit);
    });
  }

  /** Sends a request and waits for its answer; undefined when none came within `timeoutMillis`. */
  call(request: BridgeRequest, timeoutMillis: number): BridgeAnswer | undefined {
    return this.channel.call(request, timeoutMillis)?.answer;
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
