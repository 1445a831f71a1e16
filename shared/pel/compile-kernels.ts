/**
 * Loop kernels: selection and projection of the common shapes (`.?[price > 500]`, `.![price * 2]`,
 * `.![name]`, `.?[status == 'open']`) run as one tight loop over plain data, with the read written out in
 * the loop and no call per item. Any item the kernel cannot decide by itself (not plain data, a value of
 * another type, an overflow) goes to `slow`, the general compiled closure, so results and errors are
 * exactly those of the general path.
 */
import type { PelNode } from './ast';
import { cleanData, isPlainSafeKey } from './safety';
import { isRootName } from './types';

/** Filters a list; `slow` decides the items the kernel cannot. */
export type FilterKernel = (list: unknown[], slow: (item: unknown) => boolean) => unknown[];
/** Maps a list; `slow` maps the items the kernel cannot. */
export type MapKernel = (list: unknown[], slow: (item: unknown) => unknown) => unknown[];

const GT = 1;
const GE = 2;
const LT = 3;
const LE = 4;
const EQ = 5;
const NE = 6;
const ADD = 7;
const SUB = 8;
const MUL = 9;
const OPS: Record<string, number> = {
  gt: GT,
  ge: GE,
  lt: LT,
  le: LE,
  eq: EQ,
  ne: NE,
  add: ADD,
  sub: SUB,
  mul: MUL,
};

/** The one key a node reads from the current item (`name` or `#this.name`), or null. */
function itemKey(node: PelNode): string | null {
  if (node.type === 'Identifier')
    return isRootName(node.name) || !isPlainSafeKey(node.name) ? null : node.name;
  if (
    node.type === 'Property' &&
    !node.safe &&
    node.object.type === 'Variable' &&
    node.object.name === 'this'
  ) {
    return isPlainSafeKey(node.name) ? node.name : null;
  }
  return null;
}

/** `key <cmp> number` over plain items. */
function numberFilter(k: string, op: number, c: number): FilterKernel {
  return (list, slow) => {
    const out: unknown[] = [];
    const n = list.length;
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) {
        const ctor = (item as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (item as Record<string, unknown>)[k];
          if (typeof v === 'number') {
            const hit =
              op === GT
                ? v > c
                : op === GE
                  ? v >= c
                  : op === LT
                    ? v < c
                    : op === LE
                      ? v <= c
                      : op === EQ
                        ? v === c
                        : v !== c;
            if (hit) out.push(item);
            continue;
          }
        }
      }
      if (slow(item)) out.push(cleanData(item));
    }
    return out;
  };
}

/** `key == 'text'` / `key != 'text'` over plain items. */
function stringFilter(k: string, equal: boolean, c: string): FilterKernel {
  return (list, slow) => {
    const out: unknown[] = [];
    const n = list.length;
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) {
        const ctor = (item as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (item as Record<string, unknown>)[k];
          if (typeof v === 'string') {
            if ((v === c) === equal) out.push(item);
            continue;
          }
        }
      }
      if (slow(item)) out.push(cleanData(item));
    }
    return out;
  };
}

/** `key` as a boolean condition over plain items. */
function booleanFilter(k: string): FilterKernel {
  return (list, slow) => {
    const out: unknown[] = [];
    const n = list.length;
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) {
        const ctor = (item as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (item as Record<string, unknown>)[k];
          if (v === true || v === false) {
            if (v) out.push(item);
            continue;
          }
        }
      }
      if (slow(item)) out.push(cleanData(item));
    }
    return out;
  };
}

/** `key` over plain items (a missing key is null, as for any map). */
function keyMap(k: string): MapKernel {
  return (list, slow) => {
    const n = list.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) {
        const ctor = (item as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (item as Record<string, unknown>)[k];
          if (v === undefined) {
            out[i] = null;
            continue;
          }
          if (typeof v !== 'function' && typeof v !== 'symbol') {
            out[i] = v;
            continue;
          }
        }
      }
      out[i] = slow(item);
    }
    return out;
  };
}

/** `key <+ - *> number` over plain items. */
function arithmeticMap(k: string, op: number, c: number): MapKernel {
  return (list, slow) => {
    const n = list.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) {
        const ctor = (item as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (item as Record<string, unknown>)[k];
          if (typeof v === 'number') {
            const r = op === ADD ? v + c : op === SUB ? v - c : v * c;
            if (r - r === 0) {
              out[i] = r;
              continue;
            }
          }
        }
      }
      out[i] = slow(item);
    }
    return out;
  };
}

/** A filter kernel for a selection predicate, or null when it has no kernel shape. */
export function filterKernel(predicate: PelNode): FilterKernel | null {
  const key = itemKey(predicate);
  if (key) return booleanFilter(key);
  if (predicate.type !== 'Binary' || predicate.right.type !== 'Literal') return null;
  const k = itemKey(predicate.left);
  const op = OPS[predicate.operator];
  const c = predicate.right.value;
  if (!k || op === undefined || op > NE) return null;
  if (typeof c === 'number') return numberFilter(k, op, c);
  if (typeof c === 'string' && (op === EQ || op === NE)) return stringFilter(k, op === EQ, c);
  return null;
}

/** A map kernel for a projection mapper, or null when it has no kernel shape. */
export function mapKernel(mapper: PelNode): MapKernel | null {
  const key = itemKey(mapper);
  if (key) return keyMap(key);
  if (mapper.type !== 'Binary' || mapper.right.type !== 'Literal') return null;
  const k = itemKey(mapper.left);
  const op = OPS[mapper.operator];
  const c = mapper.right.value;
  if (!k || op === undefined || op < ADD || typeof c !== 'number') return null;
  return arithmeticMap(k, op, c);
}
