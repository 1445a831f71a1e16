/**
 * The worker pool that runs scripts: QuickJS evaluation is synchronous, so each script runs in a worker thread
 * and the event loop keeps serving. Workers start on first use; a worker past its time limit (plus a grace) is
 * terminated and replaced at once, the hard backstop behind QuickJS's own interrupt. A caller that gives up is
 * answered at once, while its script ends at its own time limit (the worker stays warm).
 * Workers are shared fairly among users (`fairness/fair-slots.ts`): one user holds at most `workersPerUser`
 * at once, and a freed worker goes to the waiting user who holds the fewest, so one user's looping scripts
 * never keep another user's script waiting for more than one worker's turn.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { LogLevel } from '../../shared/commands';
import { FairSlots, SlotRefused } from '../fairness/fair-slots';
import type { ScriptConfig } from './script-config';

/** What a script run needs: its code, the message and arguments as JSON, and the PEL utilities' names. */
export interface ScriptJob {
  code: string;
  inputText: string;
  catalogText: string;
}

/** What the running script may ask of the host. */
export interface ScriptHost {
  log(level: LogLevel, message: string): void;
  /** A `pi.util` or `pi.property` call: JSON text in, JSON text (or '' for undefined) out. */
  call(kind: string, payloadText: string): string | Promise<string>;
  signal?: AbortSignal;
  /** Whose share of the workers the run takes (the user); runs without one share one key. */
  owner?: string;
}

export type ScriptFailure = 'timeout' | 'memory' | 'stack' | 'script' | 'cancelled' | 'busy' | 'internal';

export type ScriptOutcome =
  { ok: true; outputText: string | undefined } | { ok: false; reason: ScriptFailure; message: string };

/** How long past its own time limit a worker may stay silent before it is terminated. */
const GRACE_MILLIS = 1000;

interface Pending {
  job: ScriptJob;
  host: ScriptHost;
  resolve(outcome: ScriptOutcome): void;
  /** The worker is free again (the run ended, or the worker was terminated). */
  done(): void;
}

/** The worker file: beside this module, or under server/script when this module is bundled into dist/. */
function workerFile(): string {
  const beside = fileURLToPath(new URL('./sandbox-worker.mjs', import.meta.url));
  if (existsSync(beside)) return beside;
  let dir = dirname(beside);
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'server', 'script', 'sandbox-worker.mjs');
}

class PoolWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  /** The id of the run whose caller gave up, read by the worker's interrupt handler. */
  private readonly cancel = new Int32Array(new SharedArrayBuffer(4));
  private current:
    (Pending & { id: number; timer?: NodeJS.Timeout; onAbort: () => void; answered?: boolean }) | undefined;
  private nextId = 0;
  dead = false;
  /** The sandbox is loaded: a run given now starts at once. */
  ready = false;

  constructor(
    file: string,
    private readonly config: ScriptConfig,
    /** Called once when this worker was terminated (a stuck, cancelled or broken run). */
    private readonly onKilled: () => void = () => undefined,
  ) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker = new Worker(file, {
      workerData: {
        callPort: channel.port2,
        callSignal: this.signal.buffer,
        cancelSignal: this.cancel.buffer,
        niceness: config.niceness ?? 0,
      },
      transferList: [channel.port2],
    });
    this.worker.unref();
    this.port.unref();
    this.port.on('message', (request: HostRequest) => void this.answer(request));
    this.worker.on('message', (message: WorkerMessage) => this.receive(message));
    this.worker.on('error', (error) =>
      this.finish({ ok: false, reason: 'internal', message: error.message }, true),
    );
    this.worker.on('exit', () => {
      this.dead = true;
      this.finish({ ok: false, reason: 'internal', message: 'The script worker stopped.' }, false);
    });
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Takes the run; it starts (and its time limit runs) once the sandbox is loaded, which a cold start needs. */
  start(pending: Pending): void {
    const id = ++this.nextId;
    const onAbort = () => this.abandon();
    pending.host.signal?.addEventListener('abort', onAbort, { once: true });
    this.current = { ...pending, id, onAbort };
    if (this.ready) this.launch();
  }

  /**
   * The caller gave up (its pipeline ended, its client went away): it is answered at once. A run the worker has
   * not seen yet ends there; a started one is stopped by QuickJS's interrupt handler, which sees the run's id in
   * the shared cancel signal (the worker stays warm for the next run), or at the grace past its time limit
   * (terminated). Its owner's share of the workers is free again once the run has really stopped.
   */
  private abandon(): void {
    const current = this.current;
    if (!current || current.answered) return;
    const cancelled: ScriptOutcome = {
      ok: false,
      reason: 'cancelled',
      message: 'The pipeline ended while the script ran.',
    };
    if (!current.timer) return this.finish(cancelled, false);
    current.answered = true;
    current.resolve(cancelled);
    Atomics.store(this.cancel, 0, current.id);
  }

  private launch(): void {
    const current = this.current;
    if (!current || current.timer) return;
    current.timer = setTimeout(
      () =>
        this.finish({ ok: false, reason: 'timeout', message: 'The script ran past its time limit.' }, true),
      this.config.timeoutMillis + GRACE_MILLIS,
    );
    const { memoryBytes, stackBytes, timeoutMillis } = this.config;
    this.worker.postMessage({
      id: current.id,
      ...current.job,
      limits: { memoryBytes, stackBytes, timeoutMillis },
    });
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }

  private async answer(request: HostRequest): Promise<void> {
    const current = this.current;
    let reply: { ok: true; valueText: string } | { ok: false; message: string };
    try {
      if (!current) throw new Error('No script is running.');
      if (current.answered) throw new Error('interrupted: the pipeline ended while the script ran');
      reply = { ok: true, valueText: await current.host.call(request.kind, request.payloadText) };
    } catch (error) {
      reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    if (this.current !== current) return;
    this.port.postMessage({ seq: request.seq, ...reply });
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  private receive(message: WorkerMessage): void {
    const current = this.current;
    if (message.type === 'ready') {
      this.ready = true;
      this.launch();
      return;
    }
    if (!current || message.id !== current.id) return;
    if (message.type === 'log') current.host.log(message.level, message.message);
    else if (message.ok) this.finish({ ok: true, outputText: message.outputText }, false);
    else this.finish({ ok: false, reason: message.reason, message: message.message }, false);
  }

  /** Ends the current run; `kill` terminates the worker (stuck or broken). */
  private finish(outcome: ScriptOutcome, kill: boolean): void {
    const current = this.current;
    if (kill && !this.dead) {
      void this.terminate();
      this.onKilled();
    }
    if (!current) return;
    this.current = undefined;
    clearTimeout(current.timer);
    current.host.signal?.removeEventListener('abort', current.onAbort);
    if (!current.answered) current.resolve(outcome);
    current.done();
  }
}

/** A host call from the worker; its answer carries the same `seq`, so a late answer is never taken for another's. */
interface HostRequest {
  seq: number;
  kind: string;
  payloadText: string;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'log'; id: number; level: LogLevel; message: string }
  | { type: 'done'; id: number; ok: true; outputText?: string }
  | { type: 'done'; id: number; ok: false; reason: ScriptFailure; message: string };

export class ScriptPool {
  private readonly workers: PoolWorker[] = [];
  private readonly slots: FairSlots;
  private readonly file = workerFile();
  private closed = false;

  constructor(readonly config: ScriptConfig) {
    this.slots = new FairSlots({
      total: config.workers,
      perKey: Math.min(config.workers, config.workersPerUser ?? config.workers),
      queuePerKey: config.queuePerUser ?? Number.MAX_SAFE_INTEGER,
    });
  }

  /** Runs one script in a fresh sandbox; waits (fairly among owners) for a free worker when all are busy. */
  async run(job: ScriptJob, host: ScriptHost): Promise<ScriptOutcome> {
    if (this.closed) return { ok: false, reason: 'internal', message: 'The server is stopping.' };
    let release: () => void;
    try {
      // A run still waiting for a worker when its pipeline ends leaves the queue at once.
      release = await this.slots.acquire(host.owner ?? '', { signal: host.signal });
    } catch (error) {
      return this.refusal(error);
    }
    return new Promise<ScriptOutcome>((resolve) => {
      this.freeWorker().start({ job, host, resolve, done: release });
    });
  }

  /** Workers started and runs waiting for one, in all or of one owner (tests). */
  usage(owner?: string): { held: number; waiting: number } {
    return this.slots.usage(owner);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.slots.close();
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  /** An idle worker, started when none is: holding a slot means fewer than `workers` runs are busy. */
  private freeWorker(): PoolWorker {
    this.prune();
    // The first run starts every worker, so that another user's first script finds a warm one.
    while (this.workers.length < this.config.workers) this.startWorker();
    const idle = this.workers.filter((w) => !w.busy && !w.dead);
    return idle.find((w) => w.ready) ?? idle[0] ?? this.startWorker();
  }

  /**
   * A new worker, which loads its sandbox at once. A killed worker (a looping script) is replaced straight
   * away, so the next run, perhaps another user's, finds a warm worker rather than waiting for a cold start.
   */
  private startWorker(): PoolWorker {
    const worker = new PoolWorker(this.file, this.config, () => {
      this.prune();
      if (!this.closed && this.workers.length < this.config.workers) this.startWorker();
    });
    this.workers.push(worker);
    return worker;
  }

  private prune(): void {
    for (let i = this.workers.length - 1; i >= 0; i--) if (this.workers[i].dead) this.workers.splice(i, 1);
  }

  private refusal(error: unknown): ScriptOutcome {
    if (!(error instanceof SlotRefused)) throw error;
    switch (error.reason) {
      case 'cancelled':
      case 'timeout':
        return { ok: false, reason: 'cancelled', message: 'The pipeline ended before the script ran.' };
      case 'queue-full':
        return {
          ok: false,
          reason: 'busy',
          message: `Too many scripts of this user are waiting for a worker (at most ${this.config.queuePerUser}); try again later.`,
        };
      case 'closed':
        return { ok: false, reason: 'internal', message: 'The server is stopping.' };
    }
  }
}
