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

export interface AcquireOptions {
  /** Leaves the queue when it aborts. */
  signal?: AbortSignal;
  /** Longest wait in the queue; undefined waits until a slot is free (or the signal aborts). */
  timeoutMillis?: number;
}

interface Waiter {
  key: string;
  since: number;
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
    if (options.signal?.aborted) return Promise.reject(new SlotRefused('cancelled', 0));
    const state = this.stateOf(key);
    if (this.held < this.limits.total && state.held < this.limits.perKey) {
      return Promise.resolve(this.take(key, state));
    }
    if (state.waiting.length >= this.limits.queuePerKey) {
      this.forgetIfIdle(key, state);
      return Promise.reject(new SlotRefused('queue-full', 0));
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        key,
        since,
        grant: () => {
          cleanup();
          resolve(this.take(key, state));
        },
        refuse: (reason) => {
          cleanup();
          this.leave(waiter);
          reject(new SlotRefused(reason, Date.now() - since));
        },
      };
      const onAbort = () => waiter.refuse('cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMillis !== undefined) {
        timer = setTimeout(() => waiter.refuse('timeout'), options.timeoutMillis);
        timer.unref();
      }
      state.waiting.push(waiter);
      if (!this.ring.includes(key)) this.ring.push(key);
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
