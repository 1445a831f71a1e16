/**
 * The async runs of this instance: at most `asyncPerPipeline` of one pipeline and `asyncPerUser` of one user
 * at once; the rest wait in one queue of at most `asyncQueue` runs, and a run that would make it longer is
 * refused with 429. Waiting runs start in the order they came, skipping those whose limits are still full.
 */
import { PipeworkError } from '../../shared/errors';

export interface AsyncLimits {
  asyncPerPipeline: number;
  asyncPerUser: number;
  asyncQueue: number;
}

interface Waiting {
  id: string;
  pipeline: string;
  user: string;
  start: () => Promise<unknown>;
}

export class AsyncQueue {
  private readonly byPipeline = new Map<string, number>();
  private readonly byUser = new Map<string, number>();
  private readonly waiting: Waiting[] = [];
  private reserved = 0;

  constructor(private readonly limits: AsyncLimits) {}

  /** Runs waiting (the queue depth). */
  get depth(): number {
    return this.waiting.length;
  }

  private fits(pipeline: string, user: string): boolean {
    return (
      (this.byPipeline.get(pipeline) ?? 0) < this.limits.asyncPerPipeline &&
      (this.byUser.get(user) ?? 0) < this.limits.asyncPerUser
    );
  }

  /** Keeps a place for a run about to be added; throws TOO_MANY_REQUESTS when it could only wait and the queue is full. */
  reserve(pipeline: string, user: string): () => void {
    if (!this.fits(pipeline, user) && this.waiting.length + this.reserved >= this.limits.asyncQueue) {
      throw new PipeworkError(
        'TOO_MANY_REQUESTS',
        `Too many async runs are waiting (${this.limits.asyncQueue}); try again later.`,
        { retryAfterSeconds: 2 },
      );
    }
    this.reserved++;
    let released = false;
    return () => {
      if (!released) this.reserved--;
      released = true;
    };
  }

  /** Starts the run now when its limits allow, else queues it. */
  add(entry: Waiting): void {
    this.waiting.push(entry);
    this.pump();
  }

  /** Takes a waiting run out of the queue; false when it is not waiting (started, finished or elsewhere). */
  remove(id: string): boolean {
    const i = this.waiting.findIndex((w) => w.id === id);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length;) {
      const entry = this.waiting[i]!;
      if (!this.fits(entry.pipeline, entry.user)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.count(entry, 1);
      void entry.start().finally(() => {
        this.count(entry, -1);
        this.pump();
      });
    }
  }

  private count(entry: Waiting, delta: number): void {
    this.byPipeline.set(entry.pipeline, (this.byPipeline.get(entry.pipeline) ?? 0) + delta);
    this.byUser.set(entry.user, (this.byUser.get(entry.user) ?? 0) + delta);
    if (this.byPipeline.get(entry.pipeline) === 0) this.byPipeline.delete(entry.pipeline);
    if (this.byUser.get(entry.user) === 0) this.byUser.delete(entry.user);
  }
}
