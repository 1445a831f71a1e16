import { describe, expect, it } from 'vitest';
import { asTemplate, evaluateInMessage } from './evaluate';

const message = {
  body: { items: [{ price: 3 }, { price: 4 }], name: 'Ada' },
  vars: { greeting: 'Hello', count: 2 },
  headers: { tenant: 'acme' },
};

describe('the expression console', () => {
  it('evaluates bare expressions and templates against body, vars and headers', () => {
    expect(evaluateInMessage('vars.count + 1', message)).toEqual({ ok: true, value: 3 });
    expect(evaluateInMessage('#{vars.greeting}, #{body.name} of #{headers.tenant}', message)).toEqual({
      ok: true,
      value: 'Hello, Ada of acme',
    });
    expect(evaluateInMessage('body.items[1].price', message)).toEqual({ ok: true, value: 4 });
  });

  it('uses the shared utilities', () => {
    expect(evaluateInMessage('@text.upperCase(body.name)', message)).toEqual({ ok: true, value: 'ADA' });
  });

  it('reports a syntax error with its code, and an unknown utility by name', () => {
    const syntax = evaluateInMessage('vars.count +', message);
    expect(syntax).toMatchObject({ ok: false, code: 'PEL_SYNTAX', column: 13 });
    expect(syntax.ok === false && syntax.message).not.toMatch(/^\d+:\d+/);
    expect(evaluateInMessage('#{vars.count +}', message)).toMatchObject({ ok: false, column: 15 });
    const unknown = evaluateInMessage('@nosuch.thing()', message);
    expect(unknown.ok).toBe(false);
    expect(unknown.ok === false && unknown.message).toContain('nosuch');
  });

  it('never changes the recorded message', () => {
    const before = structuredClone(message);
    evaluateInMessage('vars.count = 99', message);
    expect(message).toEqual(before);
  });

  it('reads text without #{ as one expression', () => {
    expect(asTemplate('a.b')).toBe('#{a.b}');
    expect(asTemplate('x #{a}')).toBe('x #{a}');
  });
});
