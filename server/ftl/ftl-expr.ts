/**
 * Our reader of FreeMarker expressions (the text inside `${...}`, `<#if ...>`, `<#list ... as x>`,
 * `<#assign x = ...>`). freemarker-parser finds the directives and their extent; its expression reader lacks
 * ranges (`1..3`, `0..<n`, `0..*n`) and a default inside parentheses (`(x!"d")?upper_case`), so expressions are
 * read here, into the same tree shape the evaluator walks, with FreeMarker's precedence:
 * postfix (`.`, `[]`, `?builtin(...)`, `!default`, `??`) > unary (`!`, `-`, `+`) > `* / %` > `+ -` > ranges >
 * comparisons > equality > `&&` > `||`. Nesting deeper than MAX_FTL_EXPR_DEPTH is refused.
 */
import { ftlError } from './ftl-builtins';

/** An expression node (jsep's shape, plus RangeExpression, DefaultExpression and HashExpression). */
export interface FtlExpr {
  type: string;
  name?: string;
  value?: unknown;
  operator?: string;
  prefix?: boolean;
  left?: FtlExpr;
  right?: FtlExpr;
  argument?: FtlExpr;
  object?: FtlExpr;
  property?: FtlExpr;
  computed?: boolean;
  body?: FtlExpr[];
  elements?: FtlExpr[];
  entries?: { key: FtlExpr; value: FtlExpr }[];
  callee?: FtlExpr;
  arguments?: FtlExpr[];
}

export const MAX_FTL_EXPR_DEPTH = 100;

interface Token {
  kind: 'number' | 'string' | 'name' | 'op' | 'end';
  text: string;
  value?: unknown;
  at: number;
}

const OPS = [
  '..<',
  '..!',
  '..*',
  '..',
  '??',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '?',
  '!',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '.',
  ',',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ':',
];
const RANGE_OPS = new Set(['..', '..<', '..!', '..*']);
const RELATIONAL = new Set(['<', '>', '<=', '>=', 'lt', 'lte', 'gt', 'gte']);
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  l: '<',
  g: '>',
  a: '&',
  '\\': '\\',
  '"': '"',
  "'": "'",
  $: '$',
  '{': '{',
};

function readString(text: string, start: number): { value: string; end: number } {
  const raw = text[start] === 'r';
  const quote = text[raw ? start + 1 : start]!;
  let i = raw ? start + 2 : start + 1;
  let value = '';
  while (i < text.length && text[i] !== quote) {
    const c = text[i]!;
    if (c === '\\' && !raw) {
      const next = text[i + 1] ?? '';
      if (next === 'x') {
        const hex = /^[0-9a-fA-F]{1,4}/.exec(text.slice(i + 2))?.[0] ?? '';
        if (!hex) throw ftlError(`a \\x escape needs hex digits (at ${i})`);
        value += String.fromCharCode(parseInt(hex, 16));
        i += 2 + hex.length;
        continue;
      }
      const escaped = ESCAPES[next];
      if (escaped === undefined) throw ftlError(`the escape \\${next} is not known (at ${i})`);
      value += escaped;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  if (i >= text.length) throw ftlError('a string is not closed');
  return { value, end: i + 1 };
}

export function tokenizeFtl(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      // `1..3` is 1, `..`, 3: a dot belongs to the number only when a digit follows it.
      const m = /^[0-9]+(?:\.[0-9]+)?/.exec(text.slice(i))![0];
      tokens.push({ kind: 'number', text: m, value: Number(m), at: i });
      i += m.length;
      continue;
    }
    if (c === '"' || c === "'" || (c === 'r' && (text[i + 1] === '"' || text[i + 1] === "'"))) {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', text: text.slice(i, end), value, at: i });
      i = end;
      continue;
    }
    if (/[A-Za-z_$@]/.test(c)) {
      const m = /^[A-Za-z_$@][\w$@]*/.exec(text.slice(i))![0];
      tokens.push({ kind: 'name', text: m, at: i });
      i += m.length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (!op) throw ftlError(`unexpected '${c}' in '${text.slice(0, 80)}'`);
    tokens.push({ kind: 'op', text: op, at: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', text: '', at: text.length });
  return tokens;
}

class ExprReader {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
  ) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    return this.tokens[this.pos++]!;
  }

  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  private expectOp(text: string): void {
    if (!this.isOp(text))
      throw ftlError(
        `expected '${text}' at ${this.peek().at} in '${this.source.slice(0, 80)}', found '${this.peek().text || 'the end'}'`,
      );
    this.pos++;
  }

  private deeper<T>(read: () => T): T {
    if (++this.depth > MAX_FTL_EXPR_DEPTH)
      throw ftlError(`the expression is nested more than ${MAX_FTL_EXPR_DEPTH} levels deep`);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  atEnd(): boolean {
    return this.peek().kind === 'end';
  }

  expression(): FtlExpr {
    return this.deeper(() => this.or());
  }

  private or(): FtlExpr {
    let left = this.and();
    while (this.isOp('||')) {
      this.pos++;
      left = { type: 'LogicalExpression', operator: '||', left, right: this.and() };
    }
    return left;
  }

  private and(): FtlExpr {
    let left = this.equality();
    while (this.isOp('&&')) {
      this.pos++;
      left = { type: 'LogicalExpression', operator: '&&', left, right: this.equality() };
    }
    return left;
  }

  private equality(): FtlExpr {
    let left = this.relational();
    while (this.isOp('==') || this.isOp('!=') || this.isOp('=')) {
      const operator = this.next().text;
      left = { type: 'BinaryExpression', operator, left, right: this.relational() };
    }
    return left;
  }

  private relational(): FtlExpr {
    const left = this.range();
    const t = this.peek();
    if ((t.kind === 'op' || t.kind === 'name') && RELATIONAL.has(t.text)) {
      this.pos++;
      return { type: 'BinaryExpression', operator: t.text, left, right: this.range() };
    }
    return left;
  }

  private range(): FtlExpr {
    const left = this.additive();
    const t = this.peek();
    if (t.kind !== 'op' || !RANGE_OPS.has(t.text)) return left;
    this.pos++;
    const right = this.startsOperand() ? this.additive() : undefined;
    if (!right && t.text !== '..') throw ftlError(`the range '${t.text}' needs an end`);
    return { type: 'RangeExpression', operator: t.text, left, ...(right && { right }) };
  }

  private additive(): FtlExpr {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const operator = this.next().text;
      left = { type: 'BinaryExpression', operator, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): FtlExpr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const operator = this.next().text;
      left = { type: 'BinaryExpression', operator, left, right: this.unary() };
    }
    return left;
  }

  private unary(): FtlExpr {
    if (this.isOp('!') || this.isOp('-') || this.isOp('+')) {
      const operator = this.next().text;
      const argument = this.deeper(() => this.unary());
      return { type: 'UnaryExpression', operator, prefix: true, argument };
    }
    return this.postfix();
  }

  /** Whether the next token can begin an operand (for `x!` without a default and `1..` without an end). */
  private startsOperand(): boolean {
    const t = this.peek();
    if (t.kind === 'number' || t.kind === 'string') return true;
    if (t.kind === 'name') return !RELATIONAL.has(t.text) && t.text !== 'as';
    return t.kind === 'op' && ['(', '[', '{', '!', '-', '+'].includes(t.text);
  }

  private postfix(): FtlExpr {
    let node = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const name = this.next();
        if (name.kind !== 'name') throw ftlError(`a name must follow '.' in '${this.source.slice(0, 80)}'`);
        node = {
          type: 'MemberExpression',
          computed: false,
          object: node,
          property: { type: 'Identifier', name: name.text },
        };
      } else if (this.isOp('[')) {
        this.pos++;
        const property = this.expression();
        this.expectOp(']');
        node = { type: 'MemberExpression', computed: true, object: node, property };
      } else if (this.isOp('?')) {
        this.pos++;
        node = this.builtIn(node);
      } else if (this.isOp('??')) {
        this.pos++;
        return { type: 'UnaryExpression', operator: '??', prefix: false, argument: node };
      } else if (this.isOp('!')) {
        this.pos++;
        // `x!default` ends the operand: `(x!"d")?upper_case` needs its parentheses, as in FreeMarker.
        const right = this.startsOperand() ? this.deeper(() => this.unary()) : undefined;
        return { type: 'DefaultExpression', left: node, ...(right && { right }) };
      } else return node;
    }
  }

  private builtIn(left: FtlExpr): FtlExpr {
    const name = this.next();
    if (name.kind !== 'name')
      throw ftlError(`a built-in name must follow '?' in '${this.source.slice(0, 80)}'`);
    const callee: FtlExpr = { type: 'Identifier', name: name.text };
    if (!this.isOp('(')) return { type: 'BuiltInExpression', operator: '?', left, right: callee };
    this.pos++;
    const args = this.list(')');
    return {
      type: 'BuiltInExpression',
      operator: '?',
      left,
      right: { type: 'CallExpression', callee, arguments: args },
    };
  }

  private list(close: string): FtlExpr[] {
    const items: FtlExpr[] = [];
    while (!this.isOp(close)) {
      items.push(this.expression());
      if (!this.isOp(close)) this.expectOp(',');
    }
    this.pos++;
    return items;
  }

  private primary(): FtlExpr {
    const t = this.next();
    if (t.kind === 'number' || t.kind === 'string') return { type: 'Literal', value: t.value };
    if (t.kind === 'name') {
      if (t.text === 'true' || t.text === 'false') return { type: 'Literal', value: t.text === 'true' };
      if (this.isOp('('))
        throw ftlError(`calling '${t.text}(...)' is not supported (functions and methods are not run)`);
      return { type: 'Identifier', name: t.text };
    }
    if (t.kind === 'op' && t.text === '(') {
      const inner = this.expression();
      this.expectOp(')');
      return inner;
    }
    if (t.kind === 'op' && t.text === '[')
      return this.deeper(() => ({ type: 'ArrayExpression', elements: this.list(']') }));
    if (t.kind === 'op' && t.text === '{') return this.deeper(() => this.hash());
    throw ftlError(`unexpected '${t.text || 'end'}' at ${t.at} in '${this.source.slice(0, 80)}'`);
  }

  private hash(): FtlExpr {
    const entries: { key: FtlExpr; value: FtlExpr }[] = [];
    while (!this.isOp('}')) {
      const key = this.expression();
      this.expectOp(':');
      entries.push({ key, value: this.expression() });
      if (!this.isOp('}')) this.expectOp(',');
    }
    this.pos++;
    return { type: 'HashExpression', entries };
  }
}

/** One expression, all of the text. */
export function parseFtlExpression(text: string): FtlExpr {
  const reader = new ExprReader(tokenizeFtl(text), text);
  const expr = reader.expression();
  if (!reader.atEnd()) throw ftlError(`unexpected text after the expression '${text.slice(0, 80)}'`);
  return expr;
}

/** `<#list EXPR as x>` / `as k, v`: the expression and the loop variables. */
export function parseListParams(text: string): { source: FtlExpr; names: string[] } {
  const tokens = tokenizeFtl(text);
  let as = -1;
  for (let i = tokens.length - 1; i >= 0; i--)
    if (tokens[i]!.kind === 'name' && tokens[i]!.text === 'as') {
      as = i;
      break;
    }
  const names = as < 0 ? [] : tokens.slice(as + 1, -1).filter((t) => !(t.kind === 'op' && t.text === ','));
  const separators = as < 0 ? 0 : tokens.slice(as + 1, -1).length - names.length;
  if (
    as < 1 ||
    names.length < 1 ||
    names.length > 2 ||
    names.some((t) => t.kind !== 'name') ||
    separators !== names.length - 1
  )
    throw ftlError("<#list> reads '<#list items as item>' or '<#list hash as key, value>'");
  const end = tokens[as]!.at;
  return { source: parseFtlExpression(text.slice(0, end)), names: names.map((t) => t.text) };
}

/** `<#assign name = EXPR>`: the name and the expression. */
export function parseAssignParams(text: string): { name: string; value: FtlExpr } {
  const m = /^\s*([A-Za-z_$][\w$]*)\s*=(?!=)([\s\S]*)$/.exec(text);
  if (!m) throw ftlError("<#assign> reads '<#assign name = value>'");
  return { name: m[1]!, value: parseFtlExpression(m[2]!) };
}
