/**
 * Slots shared fairly among users: at most `total` held at once, at most `perKey` by one user, and at most
 * `queuePerKey` of one user's requests waiting (more are refused at once). A freed slot goes to the waiting
 * user who holds the fewest slots, ties served round-robin, so one user's backlog never delays another user's
 * first run. Used for pipeline runs (`run-slots.ts`) and for script workers (`script/script-pool.ts`).
 */

export interface FairSlotsLimits {
  /** Slots held at once by everyone together. */
  total: number;
  /** Slots one key (user) holds at once. */
  perKey: number;
  /** Requests of one key that may wait; 0: none wait, a request without a free slot is refused. */
  queuePerKey: number;
}

export type SlotRefusal = 'queue-full' | 'timeout' | 'cancelled' | 'closed';

/** Why a slot was not granted; the caller turns it into its own error. */
export class SlotRefused extends Error {
  constructor(
    readonly reason: SlotRefusal,
    readonly waitedMillis: number,
  ) {
    super(`slot refused: ${reason}`);
  }
}

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** What a waiter may be cancelled by besides a signal (a run's cancellation: no AbortController per wait). */
export interface SlotCancellation {
  readonly cancelled: boolean;
  onCancel(listener: () => void): void;
}

export interface AcquireOptions {
  /** Leaves the queue when it aborts. */
  signal?: AbortSignal;
  /** Leaves the queue when it is cancelled. */
  cancellation?: SlotCancellation;
  /** Longest wait in the queue; undefined waits until a slot is free (or the signal aborts). */
  timeoutMillis?: number;
}

interface Waiter {
  key: string;
  since: number;
  /** When it is refused for waiting too long (epoch millis; Infinity: never). */
  deadline: number;
  grant(): void;
  refuse(reason: SlotRefusal): void;
}

interface KeyState {
  held: number;
  waiting: Waiter[];
}

export class FairSlots {
  private readonly keys = new Map<string, KeyState>();
  /** Keys with waiters, in the order they are served when they hold as few slots as another. */
  private ring: string[] = [];
  private held = 0;
  private closed = false;
  /** One timer for all waiters' deadlines, armed for the earliest (a timer per wait cost every queued run). */
  private deadlineTimer: NodeJS.Timeout | null = null;
  private deadlineAt = Infinity;

  constructor(readonly limits: FairSlotsLimits) {}

  /** The release of a slot free at once, or null (then `acquire` waits for one, or refuses). */
  tryAcquire(key: string): ReleaseSlot | null {
    if (this.closed) return null;
    const state = this.stateOf(key);
    if (this.held < this.limits.total && state.held < this.limits.perKey) return this.take(key, state);
    this.forgetIfIdle(key, state);
    return null;
  }

  /** Resolves with the release once a slot is held; rejects with `SlotRefused`. */
  acquire(key: string, options: AcquireOptions = {}): Promise<ReleaseSlot> {
    const since = Date.now();
    if (this.closed) return Promise.reject(new SlotRefused('closed', 0));
    if (options.signal?.aborted || options.cancellation?.cancelled) {
      return Promise.reject(new SlotRefused('cancelled', 0));
    }
    const state = this.stateOf(key);
    if (this.held < this.limits.total && state.held < this.limits.perKey) {
      return Promise.resolve(this.take(key, state));
    }
    if (state.waiting.length >= this.limits.queuePerKey) {
      this.forgetIfIdle(key, state);
      return Promise.reject(new SlotRefused('queue-full', 0));
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      let settled = false;
      const { signal, cancellation, timeoutMillis } = options;
      const waiter: Waiter = {
        key,
        since,
        deadline: timeoutMillis === undefined ? Infinity : since + timeoutMillis,
        grant: () => {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(key, state));
        },
        refuse: (reason) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          this.leave(waiter);
          reject(new SlotRefused(reason, Date.now() - since));
        },
      };
      const onAbort = () => waiter.refuse('cancelled');
      signal?.addEventListener('abort', onAbort, { once: true });
      // Called at most once, after the run ends too: a waiter already served ignores it.
      cancellation?.onCancel(onAbort);
      state.waiting.push(waiter);
      if (!this.ring.includes(key)) this.ring.push(key);
      this.watchDeadline(waiter.deadline);
    });
  }

  /** Refuses every waiting request (`closed`) and every later one; held slots stay until released. */
  close(): void {
    this.closed = true;
    for (const state of [...this.keys.values()])
      for (const waiter of [...state.waiting]) waiter.refuse('closed');
  }

  /** Slots held and requests waiting, in all and for one key (tests, logs). */
  usage(key?: string): { held: number; waiting: number } {
    if (key !== undefined) {
      const state = this.keys.get(key);
      return { held: state?.held ?? 0, waiting: state?.waiting.length ?? 0 };
    }
    let waiting = 0;
    for (const state of this.keys.values()) waiting += state.waiting.length;
    return { held: this.held, waiting };
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { held: 0, waiting: [] };
      this.keys.set(key, state);
    }
    return state;
  }

  private take(key: string, state: KeyState): ReleaseSlot {
    this.held += 1;
    state.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      state.held -= 1;
      this.forgetIfIdle(key, state);
      this.serve();
    };
  }

  /** Hands free slots to waiters: the key holding the fewest first, ties in ring order. */
  private serve(): void {
    while (this.held < this.limits.total) {
      let chosen: string | undefined;
      let fewest = Infinity;
      for (const key of this.ring) {
        const state = this.keys.get(key)!;
        if (state.held < this.limits.perKey && state.held < fewest) {
          chosen = key;
          fewest = state.held;
        }
      }
      if (chosen === undefined) return;
      const state = this.keys.get(chosen)!;
      const waiter = state.waiting.shift()!;
      this.ring = this.ring.filter((k) => k !== chosen);
      if (state.waiting.length > 0) this.ring.push(chosen);
      waiter.grant();
    }
  }

  /** Arms the deadline timer for `deadline` when it comes before the one it is armed for. */
  private watchDeadline(deadline: number): void {
    if (deadline >= this.deadlineAt) return;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineAt = deadline;
    this.deadlineTimer = setTimeout(() => this.refuseExpired(), Math.max(0, deadline - Date.now()));
    this.deadlineTimer.unref();
  }

  /** Refuses the waiters past their deadline, and arms the timer for the next one. */
  private refuseExpired(): void {
    this.deadlineTimer = null;
    this.deadlineAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const state of [...this.keys.values()]) {
      for (const waiter of [...state.waiting]) {
        if (waiter.deadline <= now) waiter.refuse('timeout');
        else next = Math.min(next, waiter.deadline);
      }
    }
    if (next !== Infinity) this.watchDeadline(next);
  }

  private leave(waiter: Waiter): void {
    const state = this.keys.get(waiter.key);
    if (!state) return;
    const index = state.waiting.indexOf(waiter);
    if (index >= 0) state.waiting.splice(index, 1);
    if (state.waiting.length === 0) this.ring = this.ring.filter((k) => k !== waiter.key);
    this.forgetIfIdle(waiter.key, state);
  }

  private forgetIfIdle(key: string, state: KeyState): void {
    if (state.held === 0 && state.waiting.length === 0 && this.keys.get(key) === state) this.keys.delete(key);
  }
}
