/** The operator table shared by the parser (spelling, precedence) and the compiler (implementation). */
import { type Site, pelError } from './errors';
import { regexFullMatch } from './regex';
import { type Runtime, checkClock, checkString, concatStrings } from './runtime';
import { compareValues, deepEquals, isInteger, toBoolean, toText, typeOf } from './values';

/** What an operator implementation needs besides its operands. */
export interface OperatorSite extends Site {
  /** An operand is known to be decimal (a literal written with a dot): `/` does not truncate. */
  readonly decimal: boolean;
}

export type BinaryImpl = (a: unknown, b: unknown, site: OperatorSite, rt: Runtime) => unknown;

export interface BinaryOperatorSpec {
  /** Symbols and words; words are matched case-insensitively. */
  readonly spellings: readonly string[];
  /** Binding power: higher binds tighter. */
  readonly precedence: number;
  readonly rightAssociative?: boolean;
  /** `and`/`or`: the compiler short-circuits them; `apply` then combines two booleans. */
  readonly logical?: boolean;
  readonly apply: BinaryImpl;
  /**
   * The same operator on two numbers, for the compiler's fast path; it returns undefined when the
   * general `apply` must decide (an overflow, a division that may truncate or fail).
   */
  readonly numeric?: (a: number, b: number) => number | boolean | undefined;
}

/** A finite number, or undefined (x - x is 0 only for finite x). */
const ok = (r: number): number | undefined => (r - r === 0 ? r : undefined);

function finite(n: number, site: Site): number {
  if (!Number.isFinite(n)) throw pelError('NOT_FINITE', site);
  return n;
}

function mismatch(op: string, a: unknown, b: unknown, site: Site): never {
  throw pelError('TYPE_MISMATCH', site, `'${op}' does not apply to a ${typeOf(a)} and a ${typeOf(b)}`);
}

function numbers(op: string, a: unknown, b: unknown, site: Site): [number, number] {
  if (typeof a !== 'number' || typeof b !== 'number') mismatch(op, a, b, site);
  return [a, b];
}

const add: BinaryImpl = (a, b, site, rt) => {
  if (typeof a === 'number' && typeof b === 'number') return finite(a + b, site);
  if (typeof a === 'string' || typeof b === 'string') {
    const max = rt.limits.maxStringLength;
    return concatStrings(toText(a, max), toText(b, max), rt, site);
  }
  return mismatch('+', a, b, site);
};

const subtract: BinaryImpl = (a, b, site) => {
  const [x, y] = numbers('-', a, b, site);
  return finite(x - y, site);
};

const multiply: BinaryImpl = (a, b, site, rt) => {
  if (typeof a === 'number' && typeof b === 'number') return finite(a * b, site);
  if (typeof a === 'string' && isInteger(b) && b >= 0) {
    if (a.length * b > rt.limits.maxStringLength)
      throw pelError('STRING_TOO_LONG', site, a.length * b, rt.limits.maxStringLength);
    return checkString(a.repeat(b), rt, site);
  }
  return mismatch('*', a, b, site);
};

const divide: BinaryImpl = (a, b, site) => {
  const [x, y] = numbers('/', a, b, site);
  if (y === 0) throw pelError('DIVISION_BY_ZERO', site);
  if (!site.decimal && Number.isInteger(x) && Number.isInteger(y)) return Math.trunc(x / y) || 0;
  return finite(x / y, site);
};

const modulo: BinaryImpl = (a, b, site) => {
  const [x, y] = numbers('%', a, b, site);
  if (y === 0) throw pelError('DIVISION_BY_ZERO', site);
  return x % y || 0;
};

const power: BinaryImpl = (a, b, site) => {
  const [x, y] = numbers('^', a, b, site);
  return finite(x ** y, site);
};

const compare =
  (test: (c: number) => boolean): BinaryImpl =>
  (a, b, site) =>
    typeof a === 'number' && typeof b === 'number' ? test(a - b) : test(compareValues(a, b, site));

const matches: BinaryImpl = (a, b, site, rt) => {
  if (typeof a !== 'string' || typeof b !== 'string') return mismatch('matches', a, b, site);
  return regexFullMatch(b, a, rt, site);
};

/** `==` by value; comparing two lists or maps can take long, so a loop's clock is read after it. */
function equals(a: unknown, b: unknown, site: Site, rt: Runtime): boolean {
  const result = deepEquals(a, b);
  if (rt.deadline !== 0 && typeof a === 'object' && a !== null && a !== b) checkClock(rt, site);
  return result;
}

const between: BinaryImpl = (a, b, site) => {
  if (!Array.isArray(b) || b.length !== 2) {
    throw pelError('TYPE_MISMATCH', site, "'between' needs a list of two bounds on its right, e.g. {1, 5}");
  }
  return compareValues(a, b[0], site) >= 0 && compareValues(a, b[1], site) <= 0;
};

const logical: BinaryImpl = () => {
  throw new Error('logical operators are compiled with short-circuit evaluation');
};

/** Every binary operator. Precedence follows Spring's grammar (lowest first): or, and, relational, +, *, ^. */
export const BINARY_OPERATORS = {
  or: { spellings: ['or', '||'], precedence: 10, logical: true, apply: logical },
  and: { spellings: ['and', '&&'], precedence: 20, logical: true, apply: logical },
  eq: {
    spellings: ['==', 'eq'],
    precedence: 30,
    apply: (a, b, site, rt) => equals(a, b, site, rt),
    numeric: (a, b) => a === b,
  },
  ne: {
    spellings: ['!=', 'ne'],
    precedence: 30,
    apply: (a, b, site, rt) => !equals(a, b, site, rt),
    numeric: (a, b) => a !== b,
  },
  lt: { spellings: ['<', 'lt'], precedence: 30, apply: compare((c) => c < 0), numeric: (a, b) => a < b },
  le: { spellings: ['<=', 'le'], precedence: 30, apply: compare((c) => c <= 0), numeric: (a, b) => a <= b },
  gt: { spellings: ['>', 'gt'], precedence: 30, apply: compare((c) => c > 0), numeric: (a, b) => a > b },
  ge: { spellings: ['>=', 'ge'], precedence: 30, apply: compare((c) => c >= 0), numeric: (a, b) => a >= b },
  matches: { spellings: ['matches'], precedence: 30, apply: matches },
  between: { spellings: ['between'], precedence: 30, apply: between },
  add: { spellings: ['+'], precedence: 40, apply: add, numeric: (a, b) => ok(a + b) },
  sub: { spellings: ['-'], precedence: 40, apply: subtract, numeric: (a, b) => ok(a - b) },
  mul: { spellings: ['*'], precedence: 50, apply: multiply, numeric: (a, b) => ok(a * b) },
  div: { spellings: ['/', 'div'], precedence: 50, apply: divide },
  mod: { spellings: ['%', 'mod'], precedence: 50, apply: modulo },
  pow: { spellings: ['^'], precedence: 60, rightAssociative: true, apply: power },
} as const satisfies Record<string, BinaryOperatorSpec>;

export type BinaryOperator = keyof typeof BINARY_OPERATORS;

export type UnaryImpl = (v: unknown, site: Site) => unknown;

export interface UnaryOperatorSpec {
  readonly spellings: readonly string[];
  readonly apply: UnaryImpl;
}

/** Unary operators bind tighter than `^` (as in Spring: `-2^2` is 4). */
export const UNARY_OPERATORS = {
  not: { spellings: ['!', 'not'], apply: (v, site) => !toBoolean(v, site) },
  neg: {
    spellings: ['-'],
    apply: (v, site) => {
      if (typeof v !== 'number')
        throw pelError('TYPE_MISMATCH', site, `'-' does not apply to a ${typeOf(v)}`);
      return -v;
    },
  },
  plus: {
    spellings: ['+'],
    apply: (v, site) => {
      if (typeof v !== 'number')
        throw pelError('TYPE_MISMATCH', site, `'+' does not apply to a ${typeOf(v)}`);
      return v;
    },
  },
} as const satisfies Record<string, UnaryOperatorSpec>;

export type UnaryOperator = keyof typeof UNARY_OPERATORS;

const binaryBySpelling = new Map<string, BinaryOperator>();
for (const [name, spec] of Object.entries(BINARY_OPERATORS) as [BinaryOperator, BinaryOperatorSpec][]) {
  for (const s of spec.spellings) binaryBySpelling.set(s, name);
}
const unaryBySpelling = new Map<string, UnaryOperator>();
for (const [name, spec] of Object.entries(UNARY_OPERATORS) as [UnaryOperator, UnaryOperatorSpec][]) {
  for (const s of spec.spellings) unaryBySpelling.set(s, name);
}

/** The binary operator a token spells (punctuator or word, words case-insensitive), if any. */
export function binaryOperatorFor(kind: string, value: string): BinaryOperator | undefined {
  if (kind === 'punct') return binaryBySpelling.get(value);
  if (kind === 'identifier') {
    return binaryBySpelling.get(value.toLowerCase());
  }
  return undefined;
}

/** The unary operator a token spells, if any. */
export function unaryOperatorFor(kind: string, value: string): UnaryOperator | undefined {
  if (kind === 'punct') return unaryBySpelling.get(value);
  if (kind === 'identifier') return unaryBySpelling.get(value.toLowerCase());
  return undefined;
}

/** Words that are operators, so that the editor can colour them. */
export const OPERATOR_WORDS: ReadonlySet<string> = new Set(
  [...binaryBySpelling.keys(), ...unaryBySpelling.keys()].filter((s) => /^[a-z]+$/.test(s)),
);
