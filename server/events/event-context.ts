/**
 * Where the current code runs in a chain of event-triggered pipelines, carried through awaits with
 * AsyncLocalStorage: how deep (an event.listen pipeline that writes properties cannot trigger itself forever)
 * and which cascade (the originating write whose listener runs share one budget: `cascade-budget.ts`). Events
 * published here carry both, also through the PostgreSQL outbox.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface EventOrigin {
  /** 0 outside any event-triggered run; n inside a pipeline started by an event of depth n-1. */
  depth: number;
  /** The cascade a listener run belongs to (null outside listener runs: a write there starts a new one). */
  cascade: string | null;
}

const originStorage = new AsyncLocalStorage<EventOrigin>();

const OUTSIDE: EventOrigin = { depth: 0, cascade: null };

export function currentEventOrigin(): EventOrigin {
  return originStorage.getStore() ?? OUTSIDE;
}

/** 0 outside any event-triggered run; n inside a pipeline started by an event of depth n-1. */
export function currentEventDepth(): number {
  return currentEventOrigin().depth;
}

/** Runs `fn` (and everything it awaits) at the given depth, in the current cascade. */
export function runAtEventDepth<T>(depth: number, fn: () => T): T {
  return originStorage.run({ depth, cascade: currentEventOrigin().cascade }, fn);
}

/** Runs `fn` (and everything it awaits) with the given origin: a listener run, or a write made for one. */
export function runInEventOrigin<T>(origin: EventOrigin, fn: () => T): T {
  return originStorage.run(origin, fn);
}
