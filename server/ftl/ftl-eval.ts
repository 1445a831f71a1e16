/**
 * The evaluator of the FreeMarker subset the real product's docs and apps use: `${...}` with the common
 * built-ins, `<#if>/<#elseif>/<#else>`, `<#list x as y>` (and `as k, v` over a map, `<#else>` when empty,
 * ranges such as `1..3` and `0..<n`), `<#assign>`, comments. Budgeted: every node, loop turn and range item
 * counts against `maxSteps`, the output and every text or list made against `maxChars`, the whole against
 * `maxMillis` (checked every 1024 steps), so a hostile template ends with LIMIT_EXCEEDED instead of holding
 * the event loop or the memory.
 */
import { PipeworkError } from '../../shared/errors';
import { applyBuiltIn, ftlError, isHash, NOT_APPLICABLE } from './ftl-builtins';
import type { FtlExpr, FtlNode } from './ftl-parse';

export interface FtlLimits {
  maxSteps: number;
  maxChars: number;
  maxMillis: number;
}

export const DEFAULT_FTL_LIMITS: FtlLimits = {
  maxSteps: 1_000_000,
  maxChars: 10 * 1024 * 1024,
  maxMillis: 10_000,
};

type Hash = Record<string, unknown>;

/** A loop variable's place in its list, for `x?index`, `x?has_next` and the like. */
interface LoopState {
  index: number;
  size: number;
}

/** Own data only: a template never reaches JavaScript's prototype members (`constructor`, `__proto__`). */
function member(object: unknown, key: unknown): unknown {
  if (Array.isArray(object) && typeof key === 'number') return object[key];
  if (isHash(object) && typeof key === 'string' && Object.prototype.hasOwnProperty.call(object, key))
    return object[key];
  return undefined;
}

function describeExpr(e: FtlExpr): string {
  switch (e.type) {
    case 'Identifier':
      return e.name ?? '?';
    case 'MemberExpression':
      return e.computed
        ? `${describeExpr(e.object!)}[...]`
        : `${describeExpr(e.object!)}.${e.property?.name}`;
    default:
      return 'the expression';
  }
}

/** FreeMarker's default number form (en_US): grouping, at most three decimals. */
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

export class FtlEvaluator {
  private steps = 0;
  private out: string[] = [];
  private chars = 0;
  private readonly scopes: Hash[];
  private readonly loops = new Map<string, LoopState>();
  private readonly limits: FtlLimits;
  private readonly startedAt = Date.now();

  constructor(model: Hash, limits: Partial<FtlLimits> = {}) {
    this.scopes = [model];
    this.limits = { ...DEFAULT_FTL_LIMITS, ...limits };
  }

  render(nodes: FtlNode[]): string {
    this.run(nodes);
    return this.out.join('');
  }

  private step(): void {
    if (++this.steps > this.limits.maxSteps)
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `the template ran more than ${this.limits.maxSteps} steps (loops and range items included).`,
        { parameter: 'template' },
      );
    if ((this.steps & 1023) === 0 && Date.now() - this.startedAt > this.limits.maxMillis)
      throw new PipeworkError('LIMIT_EXCEEDED', `the template ran longer than ${this.limits.maxMillis} ms.`, {
        parameter: 'template',
      });
  }

  private write(text: string): void {
    this.chars += text.length;
    if (this.chars > this.limits.maxChars)
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `the output is longer than ${this.limits.maxChars} characters.`,
        { parameter: 'template' },
      );
    this.out.push(text);
  }

  private tooLong(): PipeworkError {
    return new PipeworkError(
      'LIMIT_EXCEEDED',
      `a value the template made is longer than ${this.limits.maxChars} characters or ${this.limits.maxSteps} items.`,
      { parameter: 'template' },
    );
  }

  /** A text or list the template made: no longer than the output may be. */
  private sized<T>(value: T): T {
    if (typeof value === 'string' && value.length > this.limits.maxChars) throw this.tooLong();
    if (Array.isArray(value) && value.length > this.limits.maxSteps) throw this.tooLong();
    return value;
  }

  private run(nodes: FtlNode[] | undefined): void {
    for (const node of nodes ?? []) {
      this.step();
      switch (node.type) {
        case 'Text':
          this.write(node.text ?? '');
          break;
        case 'Comment':
          break;
        case 'Interpolation':
          this.write(this.text(this.required(node.expr!)));
          break;
        case 'Condition':
          this.run(this.truth(this.eval(node.expr!)) ? node.consequent : node.alternate);
          break;
        case 'List':
          this.list(node);
          break;
        case 'Assign':
          this.assign(node);
          break;
        default:
          throw ftlError(`the directive ${node.type} is not supported`);
      }
    }
  }

  private list(node: FtlNode): void {
    const { source: sourceExpr, names } = node.list!;
    const source = this.listable(sourceExpr);
    const entries: [unknown, unknown][] = Array.isArray(source)
      ? source.map((v) => [v, v])
      : isHash(source)
        ? Object.entries(source)
        : source === undefined || source === null
          ? (() => {
              throw ftlError(`${describeExpr(sourceExpr)} is missing, so <#list> has nothing to go through`);
            })()
          : (() => {
              throw ftlError(`<#list> needs a list or a hash, ${describeExpr(sourceExpr)} is not`);
            })();
    if (names.length === 2 && Array.isArray(source))
      throw ftlError('<#list ... as key, value> needs a hash, not a list');
    if (names.length === 1 && !Array.isArray(source))
      throw ftlError('<#list> over a hash needs two loop variables: <#list hash as key, value>');
    if (entries.length === 0) {
      this.run(node.fallback);
      return;
    }
    const local: Hash = {};
    this.scopes.push(local);
    const loopName = names[0]!;
    const before = this.loops.get(loopName);
    try {
      entries.forEach(([key, value], index) => {
        this.step();
        if (names.length === 2) {
          local[names[0]!] = key;
          local[names[1]!] = value;
        } else local[loopName] = value;
        this.loops.set(loopName, { index, size: entries.length });
        this.run(node.body);
      });
    } finally {
      this.scopes.pop();
      if (before) this.loops.set(loopName, before);
      else this.loops.delete(loopName);
    }
  }

  private assign(node: FtlNode): void {
    const { name, value } = node.assign!;
    // FreeMarker's assign writes the template's namespace: visible after any loop it is in.
    this.scopes[0]![name] = this.value(value);
  }

  /** What `<#list>` goes through: a range is gone through item by item, each counted. */
  private listable(e: FtlExpr): unknown {
    return this.value(e);
  }

  /** An expression's value, a range made a list (each item counted as a step). */
  private value(e: FtlExpr): unknown {
    return e.type === 'RangeExpression' ? this.rangeItems(e) : this.eval(e);
  }

  /** The integer ends of a range (`..`, `..<`, `..!`, `..*`); `to` is undefined for `1..`. */
  private rangeEnds(e: FtlExpr): { from: number; to?: number; exclusive: boolean; count?: number } {
    const from = this.integer(this.required(e.left!), 'a range');
    if (!e.right) return { from, exclusive: false };
    const right = this.integer(this.required(e.right), 'a range');
    if (e.operator === '..*') return { from, count: right, exclusive: false };
    return { from, to: right, exclusive: e.operator !== '..' };
  }

  private rangeItems(e: FtlExpr): number[] {
    const { from, to, exclusive, count } = this.rangeEnds(e);
    if (to === undefined && count === undefined)
      throw ftlError(`a range without an end (${describeExpr(e)}) is only for slicing, as in xs[2..]`);
    const items: number[] = [];
    const direction = count !== undefined ? Math.sign(count) || 1 : to! >= from ? 1 : -1;
    const length = count !== undefined ? Math.abs(count) : Math.abs(to! - from) + (exclusive ? 0 : 1);
    for (let i = 0; i < length; i++) {
      this.step();
      items.push(from + i * direction);
    }
    return this.sized(items);
  }

  private integer(v: unknown, what: string): number {
    const n = this.num(v, what);
    if (!Number.isSafeInteger(n)) throw ftlError(`${what} needs whole numbers, got ${n}`);
    return n;
  }

  /** `xs[1..3]`, `text[0..<2]`: the part, without making the range a list. */
  private slice(object: unknown, e: FtlExpr): unknown {
    if (typeof object !== 'string' && !Array.isArray(object))
      throw ftlError('a range subscript takes a part of a list or a text');
    const { from, to, exclusive, count } = this.rangeEnds(e);
    const end =
      count !== undefined ? from + count : to === undefined ? object.length : exclusive ? to : to + 1;
    if (from < 0 || end < from || end > object.length)
      throw ftlError(`the range ${from}..${end - 1} is outside the ${object.length} items`);
    return object.slice(from, end);
  }

  private lookup(name: string): unknown {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = member(this.scopes[i], name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** A value that must be there: FreeMarker fails on a missing value unless `!` or `??` says otherwise. */
  private required(e: FtlExpr): unknown {
    const v = this.eval(e);
    if (v === undefined || v === null)
      throw ftlError(
        `${describeExpr(e)} is missing or null (write ${describeExpr(e)}! or ${describeExpr(e)}!"default" for a default)`,
      );
    return v;
  }

  private eval(e: FtlExpr): unknown {
    this.step();
    switch (e.type) {
      case 'Literal':
        return e.value;
      case 'Identifier':
        return this.lookup(e.name!);
      case 'MemberExpression': {
        const object = this.required(e.object!);
        if (e.computed && e.property!.type === 'RangeExpression') return this.slice(object, e.property!);
        const key = e.computed ? this.eval(e.property!) : e.property!.name;
        return member(object, key);
      }
      case 'ArrayExpression':
        return this.sized((e.elements ?? []).map((x) => this.value(x)));
      case 'HashExpression':
        return Object.fromEntries(
          (e.entries ?? []).map(({ key, value }) => [this.text(this.required(key)), this.value(value)]),
        );
      case 'RangeExpression':
        return this.rangeItems(e);
      case 'DefaultExpression': {
        const v = this.eval(e.left!);
        if (v !== undefined && v !== null) return v;
        return e.right ? this.value(e.right) : '';
      }
      case 'UnaryExpression':
        return this.unary(e);
      case 'BinaryExpression':
        return this.binary(e.operator!, e.left!, e.right!);
      case 'LogicalExpression':
        return this.logical(e);
      case 'BuiltInExpression':
        return this.builtIn(e);
      default:
        throw ftlError(`the expression form ${e.type} is not supported`);
    }
  }

  private unary(e: FtlExpr): unknown {
    if (e.operator === '??') {
      const v = this.eval(e.argument!);
      return v !== undefined && v !== null;
    }
    if (e.operator === '!') return !this.truth(this.required(e.argument!));
    if (e.operator === '-') return -this.num(this.required(e.argument!), '-');
    if (e.operator === '+') return this.num(this.required(e.argument!), '+');
    throw ftlError(`the operator ${e.operator} is not supported`);
  }

  private logical(e: FtlExpr): boolean {
    const left = this.truth(this.required(e.left!));
    if (e.operator === '&&' || e.operator === 'and') return left && this.truth(this.required(e.right!));
    if (e.operator === '||' || e.operator === 'or') return left || this.truth(this.required(e.right!));
    throw ftlError(`the operator ${e.operator} is not supported`);
  }

  private binary(op: string, l: FtlExpr, r: FtlExpr): unknown {
    if (op === '&&' || op === '||' || op === 'and' || op === 'or')
      return this.logical({ type: 'LogicalExpression', operator: op, left: l, right: r });
    const a = this.required(l);
    const b = this.required(r);
    switch (op) {
      case '+':
        if (typeof a === 'number' && typeof b === 'number') return a + b;
        if (Array.isArray(a) && Array.isArray(b)) return this.sized([...this.sized(a), ...this.sized(b)]);
        if (isHash(a) && isHash(b)) return { ...a, ...b };
        return this.concat(this.text(a), this.text(b));
      case '-':
        return this.num(a, op) - this.num(b, op);
      case '*':
        return this.num(a, op) * this.num(b, op);
      case '/':
        return this.num(a, op) / this.num(b, op);
      case '%':
        return this.num(a, op) % this.num(b, op);
      case '==':
      case '=':
        return this.equal(a, b);
      case '!=':
        return !this.equal(a, b);
      case '<':
      case 'lt':
        return this.compare(a, b, op) < 0;
      case '<=':
      case 'lte':
        return this.compare(a, b, op) <= 0;
      case '>':
      case 'gt':
        return this.compare(a, b, op) > 0;
      case '>=':
      case 'gte':
        return this.compare(a, b, op) >= 0;
      default:
        throw ftlError(`the operator ${op} is not supported`);
    }
  }

  /** Two texts joined, refused before joining when the result would be longer than a value may be. */
  private concat(a: string, b: string): string {
    if (a.length + b.length > this.limits.maxChars) throw this.tooLong();
    return a + b;
  }

  private equal(a: unknown, b: unknown): boolean {
    if (typeof a !== typeof b) throw ftlError(`cannot compare a ${typeof a} with a ${typeof b}`);
    return a === b;
  }

  private compare(a: unknown, b: unknown, op: string): number {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    throw ftlError(`'${op}' compares two numbers or two texts`);
  }

  private num(v: unknown, what: string): number {
    if (typeof v === 'number') return v;
    throw ftlError(`'${what}' needs a number, got ${typeof v === 'string' ? `'${v}'` : typeof v}`);
  }

  private truth(v: unknown): boolean {
    if (typeof v === 'boolean') return v;
    throw ftlError(`a condition must be true or false, got ${Array.isArray(v) ? 'a list' : typeof v}`);
  }

  /** `${...}`: texts as they are, numbers in FreeMarker's default form; anything else must be made text first. */
  private text(v: unknown): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return NUMBER_FORMAT.format(v);
    if (typeof v === 'boolean') return String(v);
    if (v === undefined || v === null) throw ftlError('a missing or null value cannot be printed');
    throw ftlError(`a ${Array.isArray(v) ? 'list' : 'hash'} cannot be printed; list it or pick a field`);
  }

  private builtIn(e: FtlExpr): unknown {
    const call = e.right!.type === 'CallExpression' ? e.right! : undefined;
    const name = (call ? call.callee?.name : e.right!.name) ?? '?';
    const args = (call?.arguments ?? []).map((a) => this.value(a));
    if (name === 'has_content') {
      const v = this.eval(e.left!);
      if (v === undefined || v === null || v === '') return false;
      if (Array.isArray(v)) return v.length > 0;
      return isHash(v) ? Object.keys(v).length > 0 : true;
    }
    if (['index', 'counter', 'has_next', 'is_last', 'is_first', 'item_parity'].includes(name)) {
      const loop = e.left!.type === 'Identifier' ? this.loops.get(e.left!.name!) : undefined;
      if (!loop) throw ftlError(`?${name} is for the variable of a <#list>`);
      return {
        index: loop.index,
        counter: loop.index + 1,
        has_next: loop.index < loop.size - 1,
        is_last: loop.index === loop.size - 1,
        is_first: loop.index === 0,
        item_parity: loop.index % 2 === 0 ? 'odd' : 'even',
      }[name];
    }
    const v = this.required(e.left!);
    let result: unknown;
    try {
      result = applyBuiltIn(
        name,
        v,
        args,
        (x) => this.text(x),
        (x, what) => this.num(x, what),
        this.limits.maxChars,
      );
    } catch (error) {
      // A text past what JavaScript can hold (`?replace`, `?join` on huge values) is a budget, not a crash.
      if (error instanceof RangeError) throw this.tooLong();
      throw error;
    }
    if (result !== NOT_APPLICABLE) return this.sized(result);
    throw ftlError(`?${name} does not apply to ${describeExpr(e.left!)}`);
  }
}
