/**
 * The wall-time limit and cancellation of one run. The deadline is checked between steps; only a run that
 * waits on an asynchronous command gets a timer and an AbortSignal, made on first need. A run of synchronous
 * steps hands the event loop back every few milliseconds, so that other requests are served meanwhile and a
 * client's disconnect is noticed (promise continuations alone never let I/O in).
 */
import { PipeworkError } from '../errors';
import type { Cancellation } from './run-options';

/** How long a run may hold the event loop before it lets other work in. */
export const YIELD_EVERY_MS = 10;

/** The details that name where a limit was hit, made only when it is. */
export type Where = () => Record<string, unknown>;

const afterThisTurn: (callback: () => void) => void =
  typeof setImmediate === 'function'
    ? (callback) => setImmediate(callback)
    : (callback) => setTimeout(callback, 0);

const nextTurn: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () => new Promise((resolve) => setTimeout(resolve, 0));

export class RunClock {
  readonly started = Date.now();
  private lastYield = this.started;
  private readonly deadline: number;
  private abort: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The end of the current slice of event-loop time (performance.now() based); see `sliceDeadline`. */
  private sliceEnd = 0;
  private loopTurned = true;

  constructor(
    private readonly maxMillis: number,
    private readonly cancellation: Cancellation | undefined,
    private readonly sliceMillis = Infinity,
  ) {
    this.deadline = this.started + maxMillis;
  }

  /**
   * When the expressions evaluated now must be done (performance.now() based, for `PelOptions.deadline`):
   * a slice of `sliceMillis` begins with the first evaluation after the event loop has had a turn, and all
   * evaluations until the next turn share it, so a step with many expressions (or a command evaluating
   * one per item) cannot hold the loop longer than one. It never ends after the run's deadline.
   */
  sliceDeadline(): number {
    if (this.loopTurned) {
      const now = performance.now();
      const runLeft = this.deadline - Date.now();
      this.sliceEnd = now + Math.max(0, Math.min(this.sliceMillis, runLeft));
      this.loopTurned = false;
      afterThisTurn(() => {
        this.loopTurned = true;
      });
    }
    return this.sliceEnd;
  }

  /** Fires at the deadline or when the caller cancels. */
  get signal(): AbortSignal {
    if (!this.abort) {
      const abort = new AbortController();
      this.abort = abort;
      this.timer = setTimeout(() => abort.abort(), Math.max(0, this.deadline - Date.now()));
      if (this.cancellation?.cancelled) abort.abort();
      else this.cancellation?.onCancel(() => abort.abort());
    }
    return this.abort.signal;
  }

  /**
   * Throws LIMIT_EXCEEDED when the time is up or the caller has gone; `where` names the step (a function, so
   * that a step's details, its source position among them, are made only for the error).
   */
  check(where: Where): void {
    const now = Date.now();
    if (now < this.deadline && !this.cancellation?.cancelled && !this.abort?.signal.aborted) return;
    const message =
      now - this.started >= this.maxMillis
        ? `The pipeline ran longer than ${this.maxMillis} ms.`
        : 'The pipeline was cancelled.';
    throw new PipeworkError('LIMIT_EXCEEDED', message, { limit: 'time', ...where() });
  }

  /** Resolves with the promise's value, or rejects with LIMIT_EXCEEDED when the time is up first. */
  race<T>(promise: Promise<T>, where: Where): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) this.check(where);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        try {
          this.check(where);
        } catch (error) {
          reject(error);
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  sleep(ms: number, where: Where): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return this.race(new Promise<void>((resolve) => setTimeout(resolve, ms)), where);
  }

  /** Whether this run has held the event loop for YIELD_EVERY_MS (one clock read). */
  get yieldDue(): boolean {
    return Date.now() - this.lastYield >= YIELD_EVERY_MS;
  }

  /** Lets the event loop run (I/O, timers, other requests) before the run goes on. */
  async yieldNow(): Promise<void> {
    await nextTurn();
    this.lastYield = Date.now();
  }

  /** Clears the timer, if one was made. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
