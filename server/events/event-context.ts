/**
 * How deep in a chain of event-triggered pipelines the current code runs, carried through awaits with
 * AsyncLocalStorage, so an event.listen pipeline that writes properties cannot trigger itself forever.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const depthStorage = new AsyncLocalStorage<number>();

/** 0 outside any event-triggered run; n inside a pipeline started by an event of depth n-1. */
export function currentEventDepth(): number {
  return depthStorage.getStore() ?? 0;
}

/** Runs `fn` (and everything it awaits) at the given depth. */
export function runAtEventDepth<T>(depth: number, fn: () => T): T {
  return depthStorage.run(depth, fn);
}
