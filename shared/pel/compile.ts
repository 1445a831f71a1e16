/** The compiler: turns a syntax tree into nested closures once, so evaluation is a chain of plain calls. */
import type { NodeOf, PelNode } from './ast';
import { type Site, pelError } from './errors';
import { BINARY_OPERATORS, type BinaryOperatorSpec, type OperatorSite, UNARY_OPERATORS } from './operators';
import type { Evaluator } from './runtime';
import { isPlainSafeKey, readOwn } from './safety';
import { isRootName } from './types';
import { toBoolean } from './values';
import { readIndex, readLambdaName, readProperty, readRoot, rootObject } from './compile-access';
import { compileSetter } from './compile-assign';
import { compileMethodCall, compileUtilityCall } from './compile-calls';
import { compileList, compileMap, compileProjection, compileSelection } from './compile-collections';
import type { CompileContext } from './compile-context';

export type { CompileContext } from './compile-context';

/** Compiles a whole expression parsed from `source`. */
export function compileTree(node: PelNode, source: string): Evaluator {
  return compileNode(node, { source, inLambda: false });
}

function siteOf(node: PelNode, cx: CompileContext): Site {
  return { source: cx.source, start: node.start, end: node.end };
}

/** Statically decimal: a literal written with a dot/exponent, or arithmetic over one (see docs/pel.md, numbers). */
function isDecimal(node: PelNode): boolean {
  switch (node.type) {
    case 'Literal':
      return node.decimal;
    case 'Unary':
      return node.operator !== 'not' && isDecimal(node.operand);
    case 'Binary':
      return (
        ['add', 'sub', 'mul', 'div', 'mod', 'pow'].includes(node.operator) &&
        (isDecimal(node.left) || isDecimal(node.right))
      );
    case 'Ternary':
      return isDecimal(node.consequent) || isDecimal(node.alternate);
    default:
      return false;
  }
}

export function compileNode(node: PelNode, cx: CompileContext): Evaluator {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      return () => value;
    }
    case 'Identifier':
      return compileIdentifier(node, cx);
    case 'Variable':
      return compileVariable(node, cx);
    case 'Utility':
      throw pelError('BAD_UTILITY_USE', siteOf(node, cx), node.name);
    case 'Property':
      return compileProperty(node, cx);
    case 'Index': {
      const object = compileNode(node.object, cx);
      const index = compileNode(node.index, cx);
      const site = siteOf(node, cx);
      const safe = node.safe;
      return (rt) => readIndex(object(rt), index(rt), safe, site);
    }
    case 'Call':
      if (node.object?.type === 'Utility') return compileUtilityCall(node, node.object.name, cx, compileNode);
      return compileMethodCall(node, cx, compileNode);
    case 'Selection':
      return compileSelection(node, cx, compileNode);
    case 'Projection':
      return compileProjection(node, cx, compileNode);
    case 'Unary':
      return compileUnary(node, cx);
    case 'Binary':
      return compileBinary(node, cx);
    case 'Ternary': {
      const test = compileNode(node.test, cx);
      const yes = compileNode(node.consequent, cx);
      const no = compileNode(node.alternate, cx);
      const site = siteOf(node.test, cx);
      return (rt) => {
        const t = test(rt);
        return (t === true || (t !== false && toBoolean(t, site)) ? yes : no)(rt);
      };
    }
    case 'Elvis': {
      const left = compileNode(node.left, cx);
      const right = compileNode(node.right, cx);
      return (rt) => {
        const v = left(rt);
        return v === null || v === undefined || v === '' ? right(rt) : v;
      };
    }
    case 'Assign': {
      const setter = compileSetter(node.target, cx, compileNode);
      const value = compileNode(node.value, cx);
      return (rt) => {
        const v = value(rt);
        setter(rt, v);
        return v;
      };
    }
    case 'List':
      return compileList(node, cx, compileNode);
    case 'Map':
      return compileMap(node, cx, compileNode);
  }
}

function compileIdentifier(node: NodeOf<'Identifier'>, cx: CompileContext): Evaluator {
  const name = node.name;
  const site = siteOf(node, cx);
  if (cx.inLambda) {
    if (!isPlainSafeKey(name) || isRootName(name)) return (rt) => readLambdaName(rt, name, site);
    // Fast path for a plain item that has the key (see compileProperty); everything else takes the full rules.
    return (rt) => {
      const t = rt.thisValue;
      if (typeof t === 'object' && t !== null) {
        const ctor = (t as { constructor?: unknown }).constructor;
        if (ctor === Object || ctor === undefined) {
          const v = (t as Record<string, unknown>)[name];
          if (v !== undefined) return typeof v === 'function' || typeof v === 'symbol' ? null : v;
        }
      }
      return readLambdaName(rt, name, site);
    };
  }
  switch (name) {
    case 'body':
      return (rt) => readRoot(rt, 'body');
    case 'vars':
      return (rt) => readRoot(rt, 'vars');
    case 'headers':
      return (rt) => readRoot(rt, 'headers');
    default:
      if (isRootName(name)) return (rt) => readRoot(rt, name);
      return () => {
        throw pelError('UNKNOWN_NAME', site, name);
      };
  }
}

function compileVariable(node: NodeOf<'Variable'>, cx: CompileContext): Evaluator {
  const name = node.name;
  if (name === 'root') return rootObject;
  if (name === 'this') return cx.inLambda ? (rt) => rt.thisValue : rootObject;
  return (rt) => {
    const vars = rt.scope.vars;
    return typeof vars === 'object' && vars !== null ? readOwn(vars, name) : null;
  };
}

function compileProperty(node: NodeOf<'Property'>, cx: CompileContext): Evaluator {
  const object = compileNode(node.object, cx);
  const name = node.name;
  const safe = node.safe;
  const site: Site = { source: cx.source, start: node.nameStart, end: node.end };
  if (!isPlainSafeKey(name)) return (rt) => readProperty(object(rt), name, safe, site);
  // Fast path for plain data (its constructor is Object, or it has none: JSON, literals, null-prototype
  // maps): a key that Object.prototype lacks can only be found as an own property.
  return (rt) => {
    const o = object(rt);
    if (typeof o === 'object' && o !== null) {
      const ctor = (o as { constructor?: unknown }).constructor;
      if (ctor === Object || ctor === undefined) {
        const v = (o as Record<string, unknown>)[name];
        return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;
      }
    }
    return readProperty(o, name, safe, site);
  };
}

function compileUnary(node: NodeOf<'Unary'>, cx: CompileContext): Evaluator {
  const operand = compileNode(node.operand, cx);
  const site = siteOf(node, cx);
  if (node.operator === 'not') {
    return (rt) => {
      const v = operand(rt);
      return v === true ? false : v === false ? true : !toBoolean(v, site);
    };
  }
  const apply = UNARY_OPERATORS[node.operator].apply;
  return (rt) => apply(operand(rt), site);
}

function compileBinary(node: NodeOf<'Binary'>, cx: CompileContext): Evaluator {
  const left = compileNode(node.left, cx);
  const right = compileNode(node.right, cx);
  const spec: BinaryOperatorSpec = BINARY_OPERATORS[node.operator];
  if (spec.logical) {
    const leftSite = siteOf(node.left, cx);
    const rightSite = siteOf(node.right, cx);
    const asBool = (v: unknown, s: Site): boolean => v === true || (v !== false && toBoolean(v, s));
    return node.operator === 'and'
      ? (rt) => asBool(left(rt), leftSite) && asBool(right(rt), rightSite)
      : (rt) => asBool(left(rt), leftSite) || asBool(right(rt), rightSite);
  }
  const site: OperatorSite = {
    source: cx.source,
    start: node.operatorStart,
    end: node.end,
    decimal: isDecimal(node.left) || isDecimal(node.right),
  };
  const apply = spec.apply;
  const numeric = spec.numeric;
  if (!numeric) return (rt) => apply(left(rt), right(rt), site, rt);
  // Fast paths for numbers (the table's `numeric`), with a constant right operand folded in.
  if (node.right.type === 'Literal' && typeof node.right.value === 'number') {
    const c = node.right.value;
    return (rt) => {
      const a = left(rt);
      if (typeof a === 'number') {
        const r = numeric(a, c);
        if (r !== undefined) return r;
      }
      return apply(a, c, site, rt);
    };
  }
  return (rt) => {
    const a = left(rt);
    const b = right(rt);
    if (typeof a === 'number' && typeof b === 'number') {
      const r = numeric(a, b);
      if (r !== undefined) return r;
    }
    return apply(a, b, site, rt);
  };
}
