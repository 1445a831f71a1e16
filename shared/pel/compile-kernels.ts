/**
 * Item kernels: selection predicates and projection mappers of the common shapes (`price`, `#this.a.b`,
 * `price > 500`, `price * 2`) compiled to small functions of the item alone, so that a loop over 10,000
 * items runs without the runtime. A kernel answers SLOW whenever the full rules must decide (an item that
 * is not plain data, a missing intermediate, a value that is not a number); the loop then calls the
 * general closure for that item, which gives the same result or error as without kernels.
 */
import type { PelNode } from './ast';
import { isPlainSafeKey } from './safety';
import { isRootName } from './types';

export const SLOW: unique symbol = Symbol('slow');
export type Kernel = (item: unknown) => unknown;

/** Reads a key of plain data, or SLOW. Small and monomorphic in shape, so V8 inlines it into kernels. */
function readPlain(o: unknown, key: string): unknown {
  if (typeof o === 'object' && o !== null) {
    const proto: unknown = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      const v = (o as Record<string, unknown>)[key];
      return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;
    }
  }
  return SLOW;
}

/** The path a node reads from the current item (`name`, `#this`, `#this.a.b`, `a.b`), or null. */
function itemPath(node: PelNode): string[] | null {
  switch (node.type) {
    case 'Identifier':
      return isRootName(node.name) || !isPlainSafeKey(node.name) ? null : [node.name];
    case 'Variable':
      return node.name === 'this' ? [] : null;
    case 'Property': {
      if (node.safe || !isPlainSafeKey(node.name)) return null;
      const base = itemPath(node.object);
      return base ? [...base, node.name] : null;
    }
    default:
      return null;
  }
}

function pathKernel(path: string[]): Kernel {
  if (path.length === 0) return (item) => item;
  if (path.length === 1) {
    const k = path[0]!;
    return (item) => readPlain(item, k);
  }
  if (path.length === 2) {
    const [k1, k2] = path as [string, string];
    return (item) => {
      const v = readPlain(item, k1);
      return v === SLOW || v === null ? SLOW : readPlain(v, k2);
    };
  }
  return (item) => {
    let v: unknown = item;
    for (const k of path) {
      if (v === null) return SLOW; // reading from null: the full rules raise the error
      v = readPlain(v, k);
      if (v === SLOW) return SLOW;
    }
    return v;
  };
}

/** `path <op> number` with one closure per operator, so each stays monomorphic. */
function compareKernel(read: Kernel, op: string, c: number): Kernel | null {
  switch (op) {
    case 'gt':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v > c : SLOW;
      };
    case 'ge':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v >= c : SLOW;
      };
    case 'lt':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v < c : SLOW;
      };
    case 'le':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v <= c : SLOW;
      };
    case 'eq':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v === c : SLOW;
      };
    case 'ne':
      return (item) => {
        const v = read(item);
        return typeof v === 'number' ? v !== c : SLOW;
      };
    case 'add':
      return (item) => {
        const v = read(item);
        if (typeof v !== 'number') return SLOW;
        const r = v + c;
        return r - r === 0 ? r : SLOW;
      };
    case 'sub':
      return (item) => {
        const v = read(item);
        if (typeof v !== 'number') return SLOW;
        const r = v - c;
        return r - r === 0 ? r : SLOW;
      };
    case 'mul':
      return (item) => {
        const v = read(item);
        if (typeof v !== 'number') return SLOW;
        const r = v * c;
        return r - r === 0 ? r : SLOW;
      };
    default:
      return null;
  }
}

/** `path == 'text'` and `path != 'text'`. */
function stringKernel(read: Kernel, op: string, c: string): Kernel | null {
  if (op === 'eq') {
    return (item) => {
      const v = read(item);
      return typeof v === 'string' ? v === c : SLOW;
    };
  }
  if (op === 'ne') {
    return (item) => {
      const v = read(item);
      return typeof v === 'string' ? v !== c : SLOW;
    };
  }
  return null;
}

/** A kernel for a predicate or mapper, or null when the node has no kernel shape. */
export function itemKernel(node: PelNode): Kernel | null {
  const path = itemPath(node);
  if (path) return pathKernel(path);
  if (node.type === 'Binary' && node.right.type === 'Literal') {
    const leftPath = itemPath(node.left);
    if (!leftPath) return null;
    const read = pathKernel(leftPath);
    const c = node.right.value;
    if (typeof c === 'number') return compareKernel(read, node.operator, c);
    if (typeof c === 'string') return stringKernel(read, node.operator, c);
  }
  return null;
}
