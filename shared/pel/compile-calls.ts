/** Calls: methods from the per-type allowlist, and `@utility.function(...)` calls guarded at the boundary. */
import type { NodeOf } from './ast';
import { type Site, pelError, toPelError } from './errors';
import { BOOLEAN_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, STRING_METHODS } from './methods';
import type { MethodEnv, MethodSpec } from './methods';
import { type Evaluator, type Runtime, account, checkClock, checkListSize, checkString } from './runtime';
import { clean } from './safety';
import type { PelUtilities, PelUtility } from './types';
import { rootObject } from './compile-access';
import { beginUtilityWork, defaultUtilities, endUtilityWork, takeBuilt } from './utilities';
import { typeOf } from './values';
import type { CompileContext, CompileFn } from './compile-context';

function evalArgs(args: Evaluator[], rt: Runtime): unknown[] {
  const out = new Array<unknown>(args.length);
  for (let i = 0; i < args.length; i++) out[i] = args[i]!(rt);
  return out;
}

function checkArity(spec: MethodSpec<never>, count: number, env: MethodEnv): void {
  if (count < spec.minArgs || count > spec.maxArgs) {
    const expected = spec.minArgs === spec.maxArgs ? `${spec.minArgs}` : `${spec.minArgs} to ${spec.maxArgs}`;
    throw pelError('BAD_ARGUMENTS', env.site, `${env.name} expects ${expected} argument(s), got ${count}`);
  }
}

function invoke<T>(spec: MethodSpec<T> | undefined, target: T, args: unknown[], env: MethodEnv): unknown {
  if (!spec) throw pelError('NO_METHOD', env.site, env.name, typeOf(target));
  checkArity(spec as MethodSpec<never>, args.length, env);
  return spec.call(target, args, env);
}

/** Above these sizes a method call may scan for long enough that a loop must not wait 1,024 items to check the time. */
const LARGE_LIST = 4096;
const LARGE_TEXT = 65_536;

/** Reads the evaluation's clock, when it runs, after a call over a large value. */
function timed(result: unknown, rt: Runtime, site: Site): unknown {
  if (rt.deadline !== 0) checkClock(rt, site);
  return result;
}

/** `target.name(args)` (or a bare `name(args)` on the active context). */
export function compileMethodCall(node: NodeOf<'Call'>, cx: CompileContext, compile: CompileFn): Evaluator {
  const site: Site = { source: cx.source, start: node.nameStart, end: node.end };
  const args = node.args.map((a) => compile(a, cx));
  const name = node.name;
  const forString = STRING_METHODS.get(name);
  const forList = LIST_METHODS.get(name);
  const forMap = MAP_METHODS.get(name);
  const forNumber = NUMBER_METHODS.get(name);
  const forBoolean = BOOLEAN_METHODS.get(name);
  const inLambda = cx.inLambda;
  const target: Evaluator = node.object
    ? compile(node.object, cx)
    : (rt) => (inLambda ? rt.thisValue : rootObject(rt));
  const safe = node.safe;
  return (rt) => {
    const t = target(rt);
    if (t === null || t === undefined) {
      if (safe) return null;
      throw pelError('NULL_RECEIVER', site, `${name}()`);
    }
    const env: MethodEnv = { rt, site, name };
    const a = evalArgs(args, rt);
    switch (typeof t) {
      case 'string':
        return t.length > LARGE_TEXT
          ? timed(invoke(forString, t, a, env), rt, site)
          : invoke(forString, t, a, env);
      case 'number':
        return invoke(forNumber, t, a, env);
      case 'boolean':
        return invoke(forBoolean, t, a, env);
      default:
        if (!Array.isArray(t)) return invoke(forMap, t as object, a, env);
        return t.length > LARGE_LIST
          ? timed(invoke(forList, t, a, env), rt, site)
          : invoke(forList, t, a, env);
    }
  };
}

function findUtility(rt: Runtime, name: string, defaults: PelUtilities): PelUtility | undefined {
  const own = rt.utilities;
  if (own && Object.hasOwn(own, name)) return own[name];
  return Object.hasOwn(defaults, name) ? defaults[name] : undefined;
}

/**
 * Limits apply to what a utility returns, as to anything else an expression builds: its size, what it
 * built on the way (`takeBuilt`), and numbers must be finite. A value passed in unchanged is not new.
 */
function checkResult(v: unknown, args: unknown[], rt: Runtime, site: Site): unknown {
  const built = takeBuilt();
  if (built > 0) account(built, rt, site);
  if (typeof v === 'number') {
    if (v - v !== 0) throw pelError('NOT_FINITE', site);
  } else if (typeof v === 'object' && v !== null && !args.includes(v)) {
    if (Array.isArray(v)) checkListSize(v.length, rt, site);
    else checkListSize(Object.keys(v).length, rt, site);
  } else if (typeof v === 'string' && !args.includes(v)) checkString(v, rt, site);
  return v;
}

/** `@name.fn(args)`: looked up as own members only; whatever the function throws becomes PEL_EVAL with a position. */
export function compileUtilityCall(
  node: NodeOf<'Call'>,
  utilityName: string,
  cx: CompileContext,
  compile: CompileFn,
): Evaluator {
  const site: Site = { source: cx.source, start: node.object!.start, end: node.end };
  const args = node.args.map((a) => compile(a, cx));
  const fnName = node.name;
  return (rt) => {
    const utility = findUtility(rt, utilityName, defaultUtilities);
    if (typeof utility !== 'object' || utility === null) throw pelError('UNKNOWN_UTILITY', site, utilityName);
    const fn = Object.hasOwn(utility, fnName) ? utility[fnName] : undefined;
    if (typeof fn !== 'function') throw pelError('UNKNOWN_FUNCTION', site, fnName, utilityName);
    const a = evalArgs(args, rt);
    let result: unknown;
    takeBuilt();
    // The call runs on the evaluation's clock: started now if no loop has started it.
    if (rt.deadline === 0) checkClock(rt, site);
    const outerWork = beginUtilityWork(rt.limits.maxUtilitySteps, rt.deadline, rt.allowedMs);
    try {
      result = Reflect.apply(fn, utility, a);
    } catch (e) {
      takeBuilt();
      throw toPelError(e, site, `@${utilityName}.${fnName}`);
    } finally {
      endUtilityWork(outerWork);
    }
    // A utility call may be costly: check the time bound after each.
    checkClock(rt, site);
    return checkResult(clean(result), a, rt, site);
  };
}
