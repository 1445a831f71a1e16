import { describe, expect, it } from 'vitest';
import { isPipeworkError } from '../errors';
import { BinaryContent } from '../values';
import { type PelScope, type PelUtilities, compileExpression, evaluateTemplate } from './index';

function evaluate(expr: string, scope: Partial<PelScope> = {}): unknown {
  return compileExpression(expr).evaluate({ body: null, vars: {}, headers: {}, ...scope });
}

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    return isPipeworkError(e) ? e.code : `raw ${String(e)}`;
  }
}

class Account {
  balance = 10;
  secret(): string {
    return 'hidden';
  }
  get computed(): number {
    return 42;
  }
}

describe('host objects in the scope', () => {
  const hostile = {
    fn: () => 'called',
    account: new Account(),
    map: new Map<string, unknown>([
      ['k', 'v'],
      ['f', () => 1],
    ]),
    frozen: Object.freeze({ a: 1 }),
    nullProto: Object.assign(Object.create(null) as object, { a: 1 }),
    getter: Object.defineProperty({}, 'g', { get: () => 'from getter', enumerable: true }),
    error: new Error('boom'),
  };

  it.each([
    ['body.fn', null],
    ['body.account.balance', 10],
    ['body.account.secret', null],
    ['body.account.computed', null],
    ['body.map.k', 'v'],
    ['body.map.f', null],
    ["body.map.get('k')", 'v'],
    ['body.nullProto.a', 1],
    ['body.error.message', 'boom'],
    ['body.error.stack == null', false],
    ['body.error.constructor', null],
    ['body.account.keySet()', ['balance']],
  ])('%s', (expr, expected) => {
    expect(evaluate(expr, { body: hostile })).toEqual(expected);
  });

  it.each([
    ['body.fn()', 'PEL_EVAL'],
    ['body.account.secret()', 'PEL_EVAL'],
    ['body.frozen.a = 2', 'PEL_EVAL'],
    ['body.account.balance = 0', 'PEL_EVAL'],
    ["body.error.message = 'x'", 'PEL_EVAL'],
  ])('refuses %s', (expr, code) => {
    expect(codeOf(() => evaluate(expr, { body: hostile }))).toBe(code);
  });

  it('never writes through a prototype', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).length;
    for (const expr of [
      'vars.__proto__.x = 1',
      "vars['__proto__'].x = 1",
      '#root.vars.constructor.x = 1',
      "{:}.put('__proto__', 1)",
    ]) {
      codeOf(() => evaluate(expr));
    }
    expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('reads an own __proto__ key of JSON data as data', () => {
    const body = JSON.parse('{"__proto__": {"admin": true}}') as unknown;
    expect(evaluate("body['__proto__'].admin", { body })).toBe(true);
    expect(evaluate('body.admin', { body })).toBeNull();
  });
});

describe('a content object (bytes with a name)', () => {
  it('shows its length and type by the reference names, and its own name', () => {
    const body = new BinaryContent(new Uint8Array([1, 2, 3]), 'application/pdf', 'invoice.pdf');
    expect(evaluate("body.name + ' ' + body.contentLength + ' ' + body.contentType", { body })).toBe(
      'invoice.pdf 3 application/pdf',
    );
    expect(evaluate('body.size', { body })).toBe(3);
  });
});

describe('robustness', () => {
  const pieces = [
    'body',
    'vars',
    '.',
    '?.',
    '[',
    ']',
    '(',
    ')',
    '{',
    '}',
    ':',
    ',',
    "'x'",
    '1',
    '0',
    '+',
    '/',
    '==',
    '?',
    '.?[',
    '.![',
    '#this',
    '@date',
    '@data.get',
    'size()',
    'null',
    'and',
    'not',
    '=',
    '#{',
    '^',
    '-',
    'matches',
    "'(a+)+'",
    '__proto__',
    'constructor',
  ];

  it('turns any input into a value or a PipeworkError, never a raw exception', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(random() * 8);
      let expr = '';
      for (let k = 0; k < n; k++)
        expr += pieces[Math.floor(random() * pieces.length)] + (random() < 0.3 ? ' ' : '');
      const code = codeOf(() =>
        evaluateTemplate(i % 2 === 0 ? expr : `#{${expr}}`, {
          body: { a: [1, 2] },
          vars: { x: 'y' },
          headers: {},
        }),
      );
      expect(code === null || !code.startsWith('raw'), `${expr}: ${code}`).toBe(true);
    }
  });
});

describe('what a utility returns', () => {
  const utilities: PelUtilities = {
    host: {
      nan: () => Number.NaN,
      infinity: () => Infinity,
      text: (n: unknown) => 'x'.repeat(Number(n)),
      same: (v: unknown) => v,
    },
  };
  const run = (expr: string, maxTotalSize?: number): string | null =>
    codeOf(() =>
      compileExpression(expr).evaluate(
        { body: null, vars: {}, headers: {} },
        { utilities, limits: maxTotalSize ? { maxTotalSize } : undefined },
      ),
    );

  it.each([
    ['@host.nan()', 'PEL_EVAL'],
    ['@host.infinity()', 'PEL_EVAL'],
    ['@host.text(100)', 'LIMIT_EXCEEDED'],
  ])('%s is refused', (expr, code) => {
    expect(run(expr, 50)).toBe(code);
  });

  it('counts what utilities build, not what they pass through', () => {
    expect(run('@host.text(40)', 50)).toBeNull();
    expect(run("@host.same('x'.repeat(30)).length()", 50)).toBeNull();
    expect(run("{1, 2}.![@host.same('x'.repeat(30))]", 50)).toBe('LIMIT_EXCEEDED');
  });
});

describe('the time bound inside loops', () => {
  // Each step scans 100,000 items: reading the clock every 1,024 steps let a loop run ~20 times too long.
  it.each([
    '(#b = @list.range(0, 100000)) != null and (#c = @list.range(0, 100000)) != null and @list.range(0, 100000).![#b == #c].size() > 0',
    '(#b = @list.range(0, 100000)) != null and @list.range(0, 100000).![#b.contains(-1)].size() > 0',
  ])('stops %s soon after the limit', (expr) => {
    const started = performance.now();
    const code = codeOf(() =>
      compileExpression(expr).evaluate(
        { body: null, vars: {}, headers: {} },
        { limits: { maxEvaluationMs: 50, maxTotalSize: 1e12 } },
      ),
    );
    expect(code).toBe('LIMIT_EXCEEDED');
    expect(performance.now() - started).toBeLessThan(400);
  });
});
