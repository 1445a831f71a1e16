/** Collections: inline lists and maps, selection (`.?[]`, `.^[]`, `.$[]`) and projection (`.![]`). */
import type { NodeOf } from './ast';
import { type Site, pelError } from './errors';
import { type Evaluator, type Runtime, account, checkClock, checkListSize } from './runtime';
import { cleanData, ownKeys, readOwn, setEntry } from './safety';
import { toBoolean, typeOf } from './values';
import type { CompileContext, CompileFn } from './compile-context';
import { filterKernel, mapKernel } from './compile-kernels';

export function compileList(node: NodeOf<'List'>, cx: CompileContext, compile: CompileFn): Evaluator {
  const elements = node.elements.map((e) => compile(e, cx));
  const n = elements.length;
  const site: Site = { source: cx.source, start: node.start, end: node.end };
  return (rt) => {
    checkListSize(n, rt, site);
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = elements[i]!(rt);
    return out;
  };
}

export function compileMap(node: NodeOf<'Map'>, cx: CompileContext, compile: CompileFn): Evaluator {
  const keys = node.entries.map((e) => e.key);
  const values = node.entries.map((e) => compile(e.value, cx));
  const site: Site = { source: cx.source, start: node.start, end: node.end };
  return (rt) => {
    checkListSize(keys.length, rt, site);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!(rt);
    return out;
  };
}

/** The entries of a map as the items selection and projection see: `{key, value}` (counted as built). */
function entriesOf(m: object, rt: Runtime, site: Site): Record<string, unknown>[] {
  const keys = ownKeys(m);
  account(keys.length * 10 + 8, rt, site);
  return keys.map((key) => ({ key, value: readOwn(m, key) }));
}

function notCollection(site: Site, v: unknown, what: string): never {
  throw pelError('TYPE_MISMATCH', site, `${what} needs a list or a map, got a ${typeOf(v)}`);
}

export function compileSelection(
  node: NodeOf<'Selection'>,
  cx: CompileContext,
  compile: CompileFn,
): Evaluator {
  const source = compile(node.object, cx);
  const predicate = compile(node.predicate, { ...cx, inLambda: true });
  const kernel = filterKernel(node.predicate);
  const site: Site = { source: cx.source, start: node.object.end, end: node.end };
  const predicateSite: Site = { source: cx.source, start: node.predicate.start, end: node.predicate.end };
  const { kind, safe } = node;

  const test = (rt: Runtime, item: unknown): boolean => {
    rt.thisValue = item;
    const r = predicate(rt);
    return r === true || (r !== false && toBoolean(r, predicateSite));
  };

  const selectList = (rt: Runtime, list: unknown[]): unknown => {
    const saved = rt.thisValue;
    let result: unknown;
    // The clock is read when a loop starts and every 1,024 items (see Runtime.deadline).
    if (kind === 'all' && kernel) {
      // O(1) per item, so no clock reading inside; items the kernel leaves over take the general path.
      result = kernel(list, (item) => test(rt, cleanData(item)));
    } else if (kind === 'all') {
      const out: unknown[] = [];
      const n = list.length;
      for (let i = 0; i < n; i++) {
        if ((i & 1023) === 0) checkClock(rt, site);
        const item = cleanData(list[i]);
        rt.thisValue = item;
        const r = predicate(rt);
        if (r === true || (r !== false && toBoolean(r, predicateSite))) out.push(item);
      }
      result = out;
    } else if (kind === 'first') {
      result = null;
      for (let i = 0; i < list.length; i++) {
        if ((i & 1023) === 0) checkClock(rt, site);
        const item = cleanData(list[i]);
        if (test(rt, item)) {
          result = item;
          break;
        }
      }
    } else {
      result = null;
      for (let i = list.length - 1, k = 0; i >= 0; i--, k++) {
        if ((k & 1023) === 0) checkClock(rt, site);
        const item = cleanData(list[i]);
        if (test(rt, item)) {
          result = item;
          break;
        }
      }
    }
    rt.thisValue = saved;
    if (kind === 'all') account((result as unknown[]).length + 8, rt, site);
    return result;
  };

  return (rt) => {
    const v = source(rt);
    if (Array.isArray(v)) return selectList(rt, v);
    if (v === null || v === undefined) {
      if (safe) return null;
      throw pelError('NULL_RECEIVER', site, 'a selection');
    }
    if (typeof v !== 'object') return notCollection(site, v, 'a selection');
    const picked = selectList(rt, entriesOf(v, rt, site));
    if (kind !== 'all') return picked;
    const out: Record<string, unknown> = {};
    for (const e of picked as Record<string, unknown>[]) setEntry(out, e.key as string, e.value);
    return out;
  };
}

export function compileProjection(
  node: NodeOf<'Projection'>,
  cx: CompileContext,
  compile: CompileFn,
): Evaluator {
  const source = compile(node.object, cx);
  const mapper = compile(node.mapper, { ...cx, inLambda: true });
  const kernel = mapKernel(node.mapper);
  const site: Site = { source: cx.source, start: node.object.end, end: node.end };
  const safe = node.safe;

  const project = (rt: Runtime, list: unknown[]): unknown[] => {
    account(list.length + 8, rt, site);
    const saved = rt.thisValue;
    if (kernel) {
      // O(1) per item, so no clock reading inside; items the kernel leaves over take the general path.
      const mapped = kernel(list, (item) => {
        rt.thisValue = cleanData(item);
        return mapper(rt);
      });
      rt.thisValue = saved;
      return mapped;
    }
    const n = list.length;
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if ((i & 1023) === 0) checkClock(rt, site);
      rt.thisValue = cleanData(list[i]);
      out.push(mapper(rt));
    }
    rt.thisValue = saved;
    return out;
  };

  return (rt) => {
    const v = source(rt);
    if (Array.isArray(v)) return project(rt, v);
    if (v === null || v === undefined) {
      if (safe) return null;
      throw pelError('NULL_RECEIVER', site, 'a projection');
    }
    if (typeof v !== 'object') return notCollection(site, v, 'a projection');
    return project(rt, entriesOf(v, rt, site));
  };
}
