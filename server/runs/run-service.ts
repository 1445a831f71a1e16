/**
 * The run history as the routes and commands use it: who may see which run (their own; admins all), the
 * list with its filters, cancel (here, in the queue, or on the instance that runs it), and the background
 * work (retention, cancel requests from other instances).
 */
import { isAdmin, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import { AsyncQueue } from './async-queue';
import type { RunHistoryConfig } from './run-history-config';
import type { RunDetail, RunSummary } from './run-records';
import { isFinished } from './run-records';
import type { RunRecorder } from './run-recorder';
import type { RunFilter, RunStore } from './run-store';

/** How often this instance looks for cancel requests of its runs made on another instance. */
const CANCEL_POLL_MILLIS = 1000;
/** How often old runs are deleted. */
const RETENTION_MILLIS = 10 * 60 * 1000;

export class RunService {
  readonly queue: AsyncQueue;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly store: RunStore,
    readonly recorder: RunRecorder,
    readonly config: RunHistoryConfig,
    private readonly logger: Logger,
  ) {
    this.queue = new AsyncQueue(config);
  }

  /** Whether the principal may see the run: their own, or any for an admin. */
  static maySee(principal: Principal, run: RunSummary): boolean {
    return isAdmin(principal) || run.userUuid === principal.uuid;
  }

  /** One run with its steps; NOT_FOUND when it does not exist or is another user's (never says which). */
  async get(principal: Principal, id: string): Promise<RunDetail> {
    await this.recorder.flush();
    const run = typeof id === 'string' && id.length <= 64 ? await this.store.get(id) : undefined;
    if (!run || !RunService.maySee(principal, run)) {
      throw new PipeworkError('NOT_FOUND', `No run has the id '${String(id).slice(0, 64)}'.`, { runId: id });
    }
    return run;
  }

  /** The runs the principal may see that match the filter, newest first. */
  async list(principal: Principal, filter: RunFilter): Promise<{ runs: RunSummary[]; total: number }> {
    await this.recorder.flush();
    return this.store.list(isAdmin(principal) ? filter : { ...filter, userUuid: principal.uuid });
  }

  /** The runs the principal may see that match the filter, with their steps, newest first. */
  async details(principal: Principal, filter: RunFilter): Promise<RunDetail[]> {
    await this.recorder.flush();
    return this.store.details(isAdmin(principal) ? filter : { ...filter, userUuid: principal.uuid });
  }

  /** Cancels a queued or running run; a finished one is returned as it is. */
  async cancel(principal: Principal, id: string): Promise<RunDetail> {
    const run = await this.get(principal, id);
    if (isFinished(run.status)) return run;
    if (this.queue.remove(id)) this.recorder.cancelPrepared(id);
    else if (!this.recorder.cancelLocal(id)) await this.store.requestCancel(id);
    await this.recorder.flush();
    return (await this.store.get(id)) ?? run;
  }

  /** Starts retention and the watch for cancel requests made on other instances. */
  start(): void {
    const poll = setInterval(() => void this.pollCancels(), CANCEL_POLL_MILLIS);
    const prune = setInterval(() => void this.prune(), RETENTION_MILLIS);
    poll.unref();
    prune.unref();
    this.timers.push(poll, prune);
  }

  private async pollCancels(): Promise<void> {
    const ids = this.recorder.activeIds();
    if (ids.length === 0) return;
    try {
      for (const id of await this.store.cancelRequested(ids)) this.recorder.cancelLocal(id);
    } catch (error) {
      this.logger.warn({ err: error }, 'cancel requests could not be read');
    }
  }

  /** Deletes runs past the retention (age, and count per pipeline). */
  async prune(now = Date.now()): Promise<number> {
    try {
      return await this.store.prune(now, this.config.retentionMillis, this.config.keepPerPipeline);
    } catch (error) {
      this.logger.warn({ err: error }, 'old runs could not be deleted');
      return 0;
    }
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.recorder.flush();
    await this.store.close();
  }
}
