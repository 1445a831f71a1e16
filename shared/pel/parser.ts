/** The PEL Pratt parser: tokens in, one syntax tree out; precedence comes from the shared operator table. */
import type { NodeOf, PelNode } from './ast';
import { type PelReason, pelError } from './errors';
import { type Token, tokenize } from './lexer';
import { HARD_PEL_LIMITS } from './limits';
import { BINARY_OPERATORS, binaryOperatorFor, unaryOperatorFor } from './operators';
import { FORBIDDEN_KEYS } from './safety';

/** Parses the expression between `from` and `to` of `source` (offsets in the tree stay relative to `source`). */
export function parseExpression(source: string, from = 0, to = source.length): PelNode {
  const parser = new Parser(source, tokenize(source, from, to));
  return parser.parseAll();
}

/** True when a tree can be the target of `=` or of a command's `output`: a plain path from vars, body, headers or #var. */
export function isAssignable(node: PelNode): boolean {
  switch (node.type) {
    case 'Identifier':
      return node.name === 'vars' || node.name === 'body' || node.name === 'headers';
    case 'Variable':
      return node.name !== 'this' && node.name !== 'root';
    case 'Property':
    case 'Index':
      return !node.safe && isAssignable(node.object);
    default:
      return false;
  }
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  parseAll(): PelNode {
    const first = this.peek();
    if (first.kind === 'eof') this.fail('EMPTY_EXPRESSION', first);
    const node = this.expression();
    const rest = this.peek();
    if (rest.kind !== 'eof') this.unexpected(rest, 'an operator or the end of the expression');
    return node;
  }

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  private isPunct(t: Token, value: string): boolean {
    return t.kind === 'punct' && t.value === value;
  }

  private expect(value: string): Token {
    const t = this.peek();
    if (!this.isPunct(t, value)) this.unexpected(t, `'${value}'`);
    return this.next();
  }

  private fail(reason: PelReason, t: Token, ...args: unknown[]): never {
    throw pelError(reason, { source: this.source, start: t.start, end: t.end }, ...args);
  }

  private unexpected(t: Token, expected: string): never {
    if (t.kind === 'error') this.fail(t.value as PelReason, t, this.source.slice(t.start, t.end));
    this.fail('UNEXPECTED_TOKEN', t, describe(t), expected);
  }

  private enter(t: Token): void {
    if (++this.depth > HARD_PEL_LIMITS.maxDepth) this.fail('TOO_DEEP', t, HARD_PEL_LIMITS.maxDepth);
  }

  /** Lowest level: assignment, Elvis and ternary (all right-associative). */
  private expression(): PelNode {
    this.enter(this.peek());
    const left = this.binary(0);
    const t = this.peek();
    let node = left;
    if (this.isPunct(t, '=')) {
      if (!isAssignable(left)) this.fail('NOT_ASSIGNABLE', t);
      this.next();
      const value = this.expression();
      node = { type: 'Assign', target: left, value, start: left.start, end: value.end };
    } else if (this.isPunct(t, '?:')) {
      this.next();
      const right = this.expression();
      node = { type: 'Elvis', left, right, start: left.start, end: right.end };
    } else if (this.isPunct(t, '?')) {
      this.next();
      const consequent = this.expression();
      this.expect(':');
      const alternate = this.expression();
      node = { type: 'Ternary', test: left, consequent, alternate, start: left.start, end: alternate.end };
    }
    this.depth--;
    return node;
  }

  private binary(minPrecedence: number): PelNode {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'identifier' && t.value.toLowerCase() === 'instanceof')
        this.fail('UNSUPPORTED', t, "'instanceof'");
      const op = binaryOperatorFor(t.kind, t.value);
      if (!op) return left;
      const spec = BINARY_OPERATORS[op];
      if (spec.precedence <= minPrecedence) return left;
      this.next();
      const rightAssociative = 'rightAssociative' in spec && spec.rightAssociative;
      // A right-associative chain (`2^2^2...`) recurses once per operator: it counts as nesting.
      this.enter(t);
      const right = this.binary(rightAssociative ? spec.precedence - 1 : spec.precedence);
      this.depth--;
      left = {
        type: 'Binary',
        operator: op,
        left,
        right,
        start: left.start,
        end: right.end,
        operatorStart: t.start,
      };
    }
  }

  private unary(): PelNode {
    const t = this.peek();
    const op = unaryOperatorFor(t.kind, t.value);
    if (!op) return this.postfix();
    this.next();
    this.enter(t);
    const operand = this.unary();
    this.depth--;
    return { type: 'Unary', operator: op, operand, start: t.start, end: operand.end };
  }

  private postfix(): PelNode {
    let node = this.primary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct') return node;
      if (t.value === '.' || t.value === '?.') {
        this.next();
        node = this.member(node, t.value === '?.');
      } else if (t.value === '[') {
        this.next();
        const index = this.expression();
        const close = this.expect(']');
        node = { type: 'Index', object: node, index, safe: false, start: node.start, end: close.end };
      } else if (t.value === '?[') {
        // Selection written without the dot (`list?[x > 1]`), as seen in real pipelines.
        node = this.selection(node, false, 'all');
      } else {
        return node;
      }
    }
  }

  /** After `.` or `?.`: a property, a method call, an indexer (`?.[`), a selection or a projection. */
  private member(object: PelNode, safe: boolean): PelNode {
    const t = this.peek();
    if (t.kind === 'identifier') {
      this.next();
      if (this.isPunct(this.peek(), '(')) {
        const { args, end } = this.arguments();
        return {
          type: 'Call',
          object,
          name: t.value,
          args,
          safe,
          start: object.start,
          end,
          nameStart: t.start,
        };
      }
      return {
        type: 'Property',
        object,
        name: t.value,
        safe,
        start: object.start,
        end: t.end,
        nameStart: t.start,
      };
    }
    if (t.kind === 'punct') {
      if (t.value === '?[') return this.selection(object, safe, 'all');
      if (t.value === '^[') return this.selection(object, safe, 'first');
      if (t.value === '$[') return this.selection(object, safe, 'last');
      if (t.value === '![') {
        this.next();
        const mapper = this.expression();
        const close = this.expect(']');
        return { type: 'Projection', object, mapper, safe, start: object.start, end: close.end };
      }
      if (t.value === '[' && safe) {
        this.next();
        const index = this.expression();
        const close = this.expect(']');
        return { type: 'Index', object, index, safe: true, start: object.start, end: close.end };
      }
    }
    return this.unexpected(t, 'a property or method name');
  }

  private selection(object: PelNode, safe: boolean, kind: NodeOf<'Selection'>['kind']): PelNode {
    this.next();
    const predicate = this.expression();
    const close = this.expect(']');
    return { type: 'Selection', object, kind, predicate, safe, start: object.start, end: close.end };
  }

  private arguments(): { args: PelNode[]; end: number } {
    this.expect('(');
    const args: PelNode[] = [];
    if (!this.isPunct(this.peek(), ')')) {
      for (;;) {
        args.push(this.expression());
        if (!this.isPunct(this.peek(), ',')) break;
        this.next();
      }
    }
    const close = this.expect(')');
    return { args, end: close.end };
  }

  private primary(): PelNode {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.next();
        return { type: 'Literal', value: t.number!, decimal: t.decimal!, start: t.start, end: t.end };
      case 'string':
        this.next();
        return { type: 'Literal', value: t.value, decimal: false, start: t.start, end: t.end };
      case 'identifier':
        return this.identifier(t);
      case 'variable':
        this.next();
        if (this.isPunct(this.peek(), '(')) this.fail('UNSUPPORTED', t, 'calling #functions');
        return { type: 'Variable', name: t.value, start: t.start, end: t.end };
      case 'utility': {
        this.next();
        const dot = this.peek();
        if (
          !this.isPunct(dot, '.') ||
          this.peek(1).kind !== 'identifier' ||
          !this.isPunct(this.peek(2), '(')
        ) {
          this.fail('BAD_UTILITY_USE', t, t.value);
        }
        return { type: 'Utility', name: t.value, start: t.start, end: t.end };
      }
      case 'punct':
        return this.punctPrimary(t);
      default:
        return this.unexpected(t, 'a value');
    }
  }

  private identifier(t: Token): PelNode {
    this.next();
    const lower = t.value.toLowerCase();
    if (lower === 'true' || lower === 'false') {
      return { type: 'Literal', value: lower === 'true', decimal: false, start: t.start, end: t.end };
    }
    if (lower === 'null') return { type: 'Literal', value: null, decimal: false, start: t.start, end: t.end };
    const after = this.peek();
    if (t.value === 'T' && this.isPunct(after, '(')) this.fail('UNSUPPORTED', t, 'type references T(...)');
    if (lower === 'new' && after.kind === 'identifier') this.fail('UNSUPPORTED', t, "'new'");
    if (this.isPunct(after, '(')) {
      const { args, end } = this.arguments();
      return {
        type: 'Call',
        object: null,
        name: t.value,
        args,
        safe: false,
        start: t.start,
        end,
        nameStart: t.start,
      };
    }
    return { type: 'Identifier', name: t.value, start: t.start, end: t.end };
  }

  private punctPrimary(t: Token): PelNode {
    if (t.value === '(' || t.value === '#{') {
      this.next();
      const inner = this.expression();
      this.expect(t.value === '(' ? ')' : '}');
      return inner;
    }
    if (t.value === '{') return this.inline(t);
    return this.unexpected(t, 'a value');
  }

  /** `{}` (empty list), `{:}` (empty map), `{1, 2}` (list) or `{a: 1, 'b': 2}` (map). */
  private inline(open: Token): PelNode {
    this.next();
    this.enter(open);
    let node: PelNode;
    if (this.isPunct(this.peek(), '}')) {
      node = { type: 'List', elements: [], start: open.start, end: this.next().end };
    } else if (this.isPunct(this.peek(), ':') && this.isPunct(this.peek(1), '}')) {
      this.next();
      node = { type: 'Map', entries: [], start: open.start, end: this.next().end };
    } else if (this.isMapKey(this.peek()) && this.isPunct(this.peek(1), ':')) {
      node = this.inlineMap(open);
    } else {
      const elements: PelNode[] = [];
      for (;;) {
        elements.push(this.expression());
        if (!this.isPunct(this.peek(), ',')) break;
        this.next();
      }
      node = { type: 'List', elements, start: open.start, end: this.expect('}').end };
    }
    this.depth--;
    return node;
  }

  private isMapKey(t: Token): boolean {
    return t.kind === 'identifier' || t.kind === 'string' || t.kind === 'number';
  }

  private inlineMap(open: Token): PelNode {
    const entries: NodeOf<'Map'>['entries'] = [];
    for (;;) {
      const k = this.next();
      if (!this.isMapKey(k)) this.unexpected(k, 'a map key');
      const key = k.kind === 'number' ? String(k.number) : k.value;
      if (FORBIDDEN_KEYS.has(key)) this.fail('FORBIDDEN_NAME', k, key);
      this.expect(':');
      entries.push({ key, keyStart: k.start, value: this.expression() });
      if (!this.isPunct(this.peek(), ',')) break;
      this.next();
    }
    return { type: 'Map', entries, start: open.start, end: this.expect('}').end };
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of expression';
    case 'string':
      return 'a string';
    case 'number':
      return `the number ${t.value}`;
    case 'variable':
      return `'#${t.value}'`;
    case 'utility':
      return `'@${t.value}'`;
    default:
      return `'${t.value}'`;
  }
}
