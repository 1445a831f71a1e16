/** The state of one evaluation, shared by every compiled closure of the expression. */
import { type Site, pelError } from './errors';
import type { PelLimits } from './limits';
import type { PelScope, PelUtilities } from './types';

export interface Runtime {
  readonly scope: PelScope;
  /** The active context: the current item inside selection and projection, else null (the root). */
  thisValue: unknown;
  readonly utilities: PelUtilities | undefined;
  readonly limits: PelLimits;
  /**
   * When the evaluation must end (performance.now() based); 0 until a loop first reads the clock, so
   * evaluations without loops never read it.
   */
  deadline: number;
  /**
   * The caller's own end for this evaluation (performance.now() based), read when the clock starts: the
   * pipeline runner's end of the current slice of event-loop time, never past the run's deadline.
   */
  readonly callerDeadline: (() => number) | undefined;
  /** The time the evaluation had when its clock started (for the TIMEOUT message). */
  allowedMs: number;
  /** What the evaluation has built so far, in the units of `maxTotalSize`. */
  built: number;
  /** The `built` count at which `account` next reads the clock. */
  clockAt: number;
}

/** A compiled expression: a closure over the syntax tree, called with the runtime. */
export type Evaluator = (rt: Runtime) => unknown;

/** How much is built between two clock readings by `account`. */
const CLOCK_EVERY = 1 << 20;

/** A fresh runtime per evaluation (cheap: one small object). */
export function createRuntime(
  scope: PelScope,
  utilities: PelUtilities | undefined,
  limits: PelLimits,
  callerDeadline?: () => number,
): Runtime {
  return {
    scope,
    thisValue: null,
    utilities,
    limits,
    deadline: 0,
    callerDeadline,
    allowedMs: 0,
    built: 0,
    clockAt: CLOCK_EVERY,
  };
}

/**
 * Starts the evaluation's clock on the first call (its end: `maxEvaluationMs` from now, or the caller's
 * deadline when sooner), then fails with TIMEOUT once it has run out.
 */
export function checkClock(rt: Runtime, site: Site): void {
  const now = performance.now();
  if (rt.deadline === 0) {
    rt.deadline = now + rt.limits.maxEvaluationMs;
    if (rt.callerDeadline) rt.deadline = Math.min(rt.deadline, rt.callerDeadline());
    rt.allowedMs = Math.max(0, Math.round(rt.deadline - now));
  }
  if (now > rt.deadline) throw pelError('TIMEOUT', site, rt.allowedMs);
}

/**
 * Adds what an operation builds (characters, items, entries; 8 per list or map) to the evaluation's total
 * and fails past `maxTotalSize`; every million units it also reads the clock, so costly steps between two
 * loop checks cannot outrun the time bound.
 */
export function account(units: number, rt: Runtime, site: Site): void {
  const built = (rt.built += units);
  if (built > rt.limits.maxTotalSize) throw pelError('TOO_MUCH_DATA', site, rt.limits.maxTotalSize);
  if (built >= rt.clockAt) {
    rt.clockAt = built + CLOCK_EVERY;
    checkClock(rt, site);
  }
}

/** Throws LIMIT_EXCEEDED when a string built by the expression is too long; counts it in the total. */
export function checkString(s: string, rt: Runtime, site: Site): string {
  if (s.length > rt.limits.maxStringLength)
    throw pelError('STRING_TOO_LONG', site, s.length, rt.limits.maxStringLength);
  account(s.length, rt, site);
  return s;
}

/**
 * `a + b` for strings, refused past `maxStringLength` before it is built. Only the shorter side is counted:
 * the engine links the two rather than copying them, so accumulating (`#csv = #csv + name`) costs what is
 * appended, not the whole text again.
 */
export function concatStrings(a: string, b: string, rt: Runtime, site: Site): string {
  const length = a.length + b.length;
  if (length > rt.limits.maxStringLength)
    throw pelError('STRING_TOO_LONG', site, length, rt.limits.maxStringLength);
  account(Math.min(a.length, b.length) + 1, rt, site);
  return a + b;
}

/** Throws LIMIT_EXCEEDED when a list built by the expression is too large; counts it in the total. */
export function checkListSize(size: number, rt: Runtime, site: Site): void {
  checkSize(size, rt, site);
  account(size + 8, rt, site);
}

/** Throws LIMIT_EXCEEDED when a list or map would grow past `maxListSize` (the growth is counted by the caller). */
export function checkSize(size: number, rt: Runtime, site: Site): void {
  if (size > rt.limits.maxListSize) throw pelError('LIST_TOO_LARGE', site, size, rt.limits.maxListSize);
}
