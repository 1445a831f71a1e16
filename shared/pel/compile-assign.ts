/** Assignment: `vars.x = 1`, `body.items[0] = v`, `#x = 1` and a command's `output` target. */
import type { PelNode } from './ast';
import { type Site, pelError } from './errors';
import type { Evaluator, Runtime } from './runtime';
import { isMapLike, readOwn, unwritableReason, writeOwn } from './safety';
import { typeOf } from './values';
import type { CompileContext, CompileFn } from './compile-context';

/** Writes a value at the place an assignable tree names. */
export type Setter = (rt: Runtime, value: unknown) => void;

function siteOf(node: PelNode, cx: CompileContext): Site {
  return { source: cx.source, start: node.start, end: node.end };
}

/** A map key from an indexer value: strings, and numbers/booleans as their text. */
function keyOf(index: unknown, site: Site): string {
  if (typeof index === 'string') return index;
  if (typeof index === 'number' || typeof index === 'boolean') return String(index);
  throw pelError('TYPE_MISMATCH', site, `a map key must be a string, got a ${typeOf(index)}`);
}

function writeKey(container: unknown, key: string, value: unknown, site: Site): void {
  const reason = unwritableReason(container, key);
  if (reason === 'forbidden-key') throw pelError('FORBIDDEN_KEY', site, key);
  if (reason) throw pelError('NOT_WRITABLE', site, `a ${typeOf(container)} here cannot be changed`);
  writeOwn(container as object, key, value);
}

function writeList(list: unknown[], index: unknown, value: unknown, site: Site): void {
  if (typeof index !== 'number' || !Number.isInteger(index)) {
    throw pelError('TYPE_MISMATCH', site, `a list index must be an integer, got a ${typeOf(index)}`);
  }
  if (index < 0 || index > list.length) throw pelError('INDEX_OUT_OF_BOUNDS', site, index, list.length);
  if (unwritableReason(list, '')) throw pelError('NOT_WRITABLE', site, 'this list cannot be changed');
  list[index] = value;
}

function setRoot(rt: Runtime, name: string, value: unknown, site: Site): void {
  if (name === 'body') {
    rt.scope.body = value;
    return;
  }
  if (!isMapLike(value))
    throw pelError('TYPE_MISMATCH', site, `${name} must be a map, got a ${typeOf(value)}`);
  if (name === 'vars') rt.scope.vars = value as Record<string, unknown>;
  else rt.scope.headers = value as Record<string, unknown>;
}

/** The container a write goes into; missing maps on the way are created (`vars.a.b = 1` makes `vars.a`). */
function containerOf(node: PelNode, cx: CompileContext, compile: CompileFn): Evaluator {
  const site = siteOf(node, cx);
  switch (node.type) {
    case 'Identifier':
      return (rt) => {
        const s = rt.scope as unknown as Record<string, unknown>;
        let v = s[node.name];
        if (v === null || v === undefined) {
          v = {};
          setRoot(rt, node.name, v, site);
        }
        return v;
      };
    case 'Variable':
      return (rt) => child(rt.scope.vars, node.name, site);
    case 'Property': {
      const parent = containerOf(node.object, cx, compile);
      return (rt) => child(parent(rt), node.name, site);
    }
    case 'Index': {
      const parent = containerOf(node.object, cx, compile);
      const index = compile(node.index, cx);
      return (rt) => {
        const p = parent(rt);
        const i = index(rt);
        if (Array.isArray(p)) {
          if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= p.length) {
            throw pelError('INDEX_OUT_OF_BOUNDS', site, String(i), p.length);
          }
          const v: unknown = p[i];
          if (v !== null && v !== undefined) return v;
          const created = {};
          writeList(p, i, created, site);
          return created;
        }
        return child(p, keyOf(i, site), site);
      };
    }
    default:
      return () => {
        throw pelError('NOT_WRITABLE', site, 'this expression cannot be assigned');
      };
  }
}

function child(parent: unknown, key: string, site: Site): unknown {
  if (!isMapLike(parent)) throw pelError('NOT_WRITABLE', site, `cannot set '${key}' on a ${typeOf(parent)}`);
  const v = readOwn(parent, key);
  if (v !== null) return v;
  const created = {};
  writeKey(parent, key, created, site);
  return created;
}

/** Compiles the target of an assignment into a setter; the caller checked `isAssignable`. */
export function compileSetter(target: PelNode, cx: CompileContext, compile: CompileFn): Setter {
  const site = siteOf(target, cx);
  switch (target.type) {
    case 'Identifier':
      return (rt, value) => setRoot(rt, target.name, value, site);
    case 'Variable':
      return (rt, value) => {
        const vars = rt.scope.vars;
        if (!isMapLike(vars)) throw pelError('NOT_WRITABLE', site, 'vars is not a map');
        writeKey(vars, target.name, value, site);
      };
    case 'Property': {
      const parent = containerOf(target.object, cx, compile);
      return (rt, value) => writeKey(parent(rt), target.name, value, site);
    }
    case 'Index': {
      const parent = containerOf(target.object, cx, compile);
      const index = compile(target.index, cx);
      return (rt, value) => {
        const p = parent(rt);
        const i = index(rt);
        if (Array.isArray(p)) writeList(p, i, value, site);
        else if (isMapLike(p)) writeKey(p, keyOf(i, site), value, site);
        else throw pelError('NOT_WRITABLE', site, `cannot index into a ${typeOf(p)}`);
      };
    }
    default:
      return () => {
        throw pelError('NOT_WRITABLE', site, 'this expression cannot be assigned');
      };
  }
}
