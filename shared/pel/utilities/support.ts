/** How a utility is declared (function, signature, doc) and the argument checks all utilities share. */
import { pelError, utilityError } from '../errors';
import { DEFAULT_PEL_LIMITS } from '../limits';
import { isMapLike, ownKeys, readOwn } from '../safety';
import type { PelUtility } from '../types';
import { toText, typeOf } from '../values';

export interface UtilityFunctionSpec {
  /** How it is written, for completion and docs: `format(value, pattern, timeZone?)`. */
  readonly signature: string;
  /** Further ways to call it (the real product's overloads), written like `signature`. */
  readonly overloads?: readonly string[];
  readonly doc: string;
  readonly fn: (...args: unknown[]) => unknown;
}

export interface UtilitySpec {
  /** The name after `@`. */
  readonly name: string;
  readonly doc: string;
  readonly functions: Readonly<Record<string, UtilityFunctionSpec>>;
  /** True for utilities the server fills in (`@user`, `@property`): listed for completion, not in the defaults. */
  readonly serverProvided?: boolean;
}

/** The callable form of a spec: a frozen record of its functions. */
export function toUtility(spec: UtilitySpec): PelUtility {
  const out: PelUtility = {};
  for (const [name, f] of Object.entries(spec.functions)) out[name] = f.fn;
  return Object.freeze(out);
}

/** Hard caps for what utilities build before the caller's limits are checked on their result. */
export const UTILITY_MAX_ITEMS = 1_000_000;
export const UTILITY_MAX_STRING = 10_000_000;

function wrong(fn: string, i: number, expected: string, v: unknown): never {
  throw utilityError(`${fn}: argument ${i + 1} must be ${expected}, got a ${typeOf(v)}`);
}

/** A text argument: strings, and numbers/booleans as their text. */
export function text(fn: string, args: unknown[], i: number): string {
  const v = args[i];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return toText(v);
  return wrong(fn, i, 'a string', v);
}

/** Like `text`, but null (or absent) stays null. */
export function textOrNull(fn: string, args: unknown[], i: number): string | null {
  const v = args[i];
  return v === null || v === undefined ? null : text(fn, args, i);
}

export function optionalText(fn: string, args: unknown[], i: number, fallback: string): string {
  const v = args[i];
  return v === null || v === undefined ? fallback : text(fn, args, i);
}

export function num(fn: string, args: unknown[], i: number): number {
  const v = args[i];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return wrong(fn, i, 'a number', v);
}

export function int(fn: string, args: unknown[], i: number): number {
  const v = num(fn, args, i);
  if (!Number.isInteger(v)) wrong(fn, i, 'an integer', v);
  return v;
}

export function optionalInt(fn: string, args: unknown[], i: number, fallback: number): number {
  const v = args[i];
  return v === null || v === undefined ? fallback : int(fn, args, i);
}

/** A list argument; null reads as an empty list. */
export function list(fn: string, args: unknown[], i: number): unknown[] {
  const v = args[i];
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined) return [];
  return wrong(fn, i, 'a list', v);
}

/**
 * A list argument as the real product reads it: a list as it is, null as empty, and a text as its
 * comma-separated items, trimmed (`'Megan, Sharol'` is {'Megan', 'Sharol'}; '' is empty).
 */
export function listOrText(fn: string, args: unknown[], i: number): unknown[] {
  const v = args[i];
  if (typeof v === 'string') return splitCommas(v);
  return list(fn, args, i);
}

/** `'a, b,c'` as {'a', 'b', 'c'}; a blank text is an empty list. */
export function splitCommas(s: string): string[] {
  if (s.trim() === '') return [];
  return s.split(',').map((part) => part.trim());
}

/** The items of a call that takes one list or several arguments: `f({1, 2})`, `f('1, 2')` or `f(1, 2)`. */
export function itemsOf(fn: string, args: unknown[], from = 0): unknown[] {
  if (args.length === from + 1) {
    const v = args[from];
    if (Array.isArray(v) || typeof v === 'string' || v === null || v === undefined)
      return listOrText(fn, args, from);
  }
  return args.slice(from);
}

/** All signatures of a function: the main one and its overloads. */
export function signaturesOf(f: UtilityFunctionSpec): readonly string[] {
  return f.overloads ? [f.signature, ...f.overloads] : [f.signature];
}

export function map(fn: string, args: unknown[], i: number): object {
  const v = args[i];
  if (isMapLike(v)) return v;
  return wrong(fn, i, 'a map', v);
}

let built = 0;

/**
 * The work budget of the utility call in progress: utilities whose cost grows faster than their input
 * (JSONPath filters, XPath) spend it step by step and end with a catalogued error when it runs out, so no
 * call holds the event loop past its evaluation's deadline. Evaluation is synchronous, so one budget serves.
 */
export interface WorkBudget {
  left: number;
  readonly max: number;
  readonly deadline: number;
  readonly allowedMs: number;
  clockIn: number;
}

let work: WorkBudget | null = null;

/** Steps between two clock readings of a utility's work budget. */
const WORK_CLOCK_EVERY = 256;

/**
 * The PEL call site opens the budget of one utility call; `endUtilityWork` gets back the one it returns
 * (a utility that evaluates PEL again calls utilities inside its own call).
 */
export function beginUtilityWork(maxSteps: number, deadline: number, allowedMs: number): WorkBudget | null {
  const outer = work;
  work = { left: maxSteps, max: maxSteps, deadline, allowedMs, clockIn: WORK_CLOCK_EVERY };
  return outer;
}

export function endUtilityWork(outer: WorkBudget | null): void {
  work = outer;
}

/** Runs a utility's costly part inside the open budget, or inside a default one when called directly. */
export function withUtilityWork<T>(body: () => T): T {
  if (work) return body();
  const ms = DEFAULT_PEL_LIMITS.maxEvaluationMs;
  const outer = beginUtilityWork(DEFAULT_PEL_LIMITS.maxUtilitySteps, performance.now() + ms, ms);
  try {
    return body();
  } finally {
    endUtilityWork(outer);
  }
}

/**
 * Spends `units` steps of the current call's budget (open one with `withUtilityWork`): past the steps,
 * LIMIT_EXCEEDED (UTILITY_TOO_COSTLY); past the deadline, LIMIT_EXCEEDED (TIMEOUT).
 */
export function spendUtilityWork(units: number): void {
  const w = work;
  if (!w) return;
  w.left -= units;
  if (w.left < 0) throw pelError('UTILITY_TOO_COSTLY', null, w.max);
  w.clockIn -= units;
  if (w.clockIn <= 0) {
    w.clockIn = WORK_CLOCK_EVERY;
    if (performance.now() > w.deadline) throw pelError('TIMEOUT', null, w.allowedMs);
  }
}

/**
 * Utilities that build nested data (deep copies, parsed JSON) report its size here; the call site adds it
 * to the evaluation's `maxTotalSize` count. Evaluation is synchronous, so one counter serves every call.
 */
export function noteBuilt(units: number): void {
  built += units;
}

/** Reads and resets what the last utility call reported with `noteBuilt`. */
export function takeBuilt(): number {
  const n = built;
  built = 0;
  return n;
}

/**
 * The number of lists, maps and scalars in a value, counted up to just past `cap` (iterative and capped, so
 * deep or cyclic data can neither overflow the stack nor loop).
 */
export function sizeOf(value: unknown, cap = UTILITY_MAX_ITEMS): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n <= cap) {
    const v = stack.pop();
    n++;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isMapLike(v)) for (const k of ownKeys(v)) stack.push(readOwn(v, k));
  }
  return n;
}

export function capItems(fn: string, n: number): void {
  if (n > UTILITY_MAX_ITEMS) throw utilityError(`${fn}: a result of ${n} items is too large`);
}

export function capString(fn: string, n: number): void {
  if (n > UTILITY_MAX_STRING) throw utilityError(`${fn}: a result of ${n} characters is too long`);
}

/**
 * Joins texts, refusing first when the result would be too long: many references to one long string
 * take no memory until they are joined.
 */
export function joinTexts(fn: string, parts: string[], separator: string): string {
  let length = separator.length * Math.max(0, parts.length - 1);
  for (const p of parts) length += p.length;
  capString(fn, length);
  return parts.join(separator);
}

/** The length of `s` with every `target` replaced by `replacement` (a non-empty target), before building it. */
export function replacedLength(s: string, target: string, replacement: string): number {
  let count = 0;
  for (let i = s.indexOf(target); i >= 0; i = s.indexOf(target, i + target.length)) count++;
  return s.length + count * (replacement.length - target.length);
}
