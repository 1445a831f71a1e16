/** What a method of the allowlist looks like, and the argument checks every method shares. */
import { type Site, pelError } from '../errors';
import { type Runtime, account, checkListSize, checkSize, checkString } from '../runtime';
import { isMapLike, unwritableReason } from '../safety';
import { toText, typeOf } from '../values';

/** Where a method runs: the runtime (limits) and the call's place in the source (errors). */
export interface MethodEnv {
  readonly rt: Runtime;
  readonly site: Site;
  readonly name: string;
}

export interface MethodSpec<T> {
  /** How the method is written, for completion: `substring(begin, end?)`. */
  readonly signature: string;
  readonly doc: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly call: (target: T, args: unknown[], env: MethodEnv) => unknown;
}

export type MethodTable<T> = ReadonlyMap<string, MethodSpec<T>>;

/** Builds a table from an object literal of specs (the arity comes from the signature's optional marks). */
export function methodTable<T>(
  specs: Record<string, Omit<MethodSpec<T>, 'minArgs' | 'maxArgs'>>,
): MethodTable<T> {
  const table = new Map<string, MethodSpec<T>>();
  for (const [name, spec] of Object.entries(specs)) {
    const params = /\((.*)\)/.exec(spec.signature)![1]!.trim();
    const list = params === '' ? [] : params.split(',').map((p) => p.trim());
    const variadic = list.some((p) => p.startsWith('...'));
    const minArgs = list.filter((p) => !p.endsWith('?') && !p.startsWith('...')).length;
    table.set(name, { ...spec, minArgs, maxArgs: variadic ? Infinity : list.length });
  }
  return table;
}

export function badArgument(env: MethodEnv, index: number, expected: string, got: unknown): never {
  throw pelError(
    'BAD_ARGUMENTS',
    env.site,
    `${env.name}: argument ${index + 1} must be ${expected}, got a ${typeOf(got)}`,
  );
}

/** A string argument; numbers and booleans are converted (as Spring's conversion service does), null is refused. */
export function argString(args: unknown[], i: number, env: MethodEnv): string {
  const v = args[i];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return toText(v);
  return badArgument(env, i, 'a string', v);
}

export function argInt(args: unknown[], i: number, env: MethodEnv): number {
  const v = args[i];
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return badArgument(env, i, 'an integer', v);
}

export function argNumber(args: unknown[], i: number, env: MethodEnv): number {
  const v = args[i];
  if (typeof v === 'number') return v;
  return badArgument(env, i, 'a number', v);
}

export function argList(args: unknown[], i: number, env: MethodEnv): unknown[] {
  const v = args[i];
  if (Array.isArray(v)) return v;
  return badArgument(env, i, 'a list', v);
}

export function argMap(args: unknown[], i: number, env: MethodEnv): object {
  const v = args[i];
  if (isMapLike(v)) return v;
  return badArgument(env, i, 'a map', v);
}

/** A map key: strings as they are, numbers and booleans as their text. */
export function argKey(args: unknown[], i: number, env: MethodEnv): string {
  return argString(args, i, env);
}

export function outOfBounds(env: MethodEnv, index: number, size: number): never {
  throw pelError('INDEX_OUT_OF_BOUNDS', env.site, index, size);
}

export function limitString(s: string, env: MethodEnv): string {
  return checkString(s, env.rt, env.site);
}

export function limitList<T extends unknown[]>(list: T, env: MethodEnv): T {
  checkListSize(list.length, env.rt, env.site);
  return list;
}

/** Counts what a method builds besides its result (see `maxTotalSize`). */
export function countBuilt(units: number, env: MethodEnv): void {
  account(units, env.rt, env.site);
}

/** A list or map of `size` items about to grow by `growBy`: the new size is checked, the growth counted. */
export function limitGrowth(size: number, growBy: number, env: MethodEnv): void {
  checkSize(size + growBy, env.rt, env.site);
  account(growBy, env.rt, env.site);
}

/** Refuses writes into frozen, foreign or intrinsic objects and under forbidden keys. */
export function assertWritable(target: unknown, key: string, env: MethodEnv): void {
  const reason = unwritableReason(target, key);
  if (reason === 'forbidden-key') throw pelError('FORBIDDEN_KEY', env.site, key);
  if (reason)
    throw pelError('NOT_WRITABLE', env.site, `${env.name}: this ${typeOf(target)} cannot be changed`);
}
