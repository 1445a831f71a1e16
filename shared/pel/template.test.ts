import { describe, expect, it } from 'vitest';
import { compileTemplate, containsExpression, evaluateTemplate, findTemplateSlots } from './index';

const scope = { body: { n: 2, s: 'x' }, vars: {}, headers: {} };

describe('templates', () => {
  it.each([
    ['no expression', 'constant', 'no expression'],
    ['#{body.n}', 'expression', 2],
    ['#{body.n} ', 'mixed', '2 '],
    ['a #{body.s} b #{body.n}', 'mixed', 'a x b 2'],
    ['#{body.missing}', 'expression', null],
    ['[#{body.missing}]', 'mixed', '[]'],
  ])('%s', (text, kind, value) => {
    const t = compileTemplate(text);
    expect(t.kind).toBe(kind);
    expect(t.evaluate(scope)).toEqual(value);
  });

  it('caches by text', () => {
    expect(compileTemplate('#{1 + 1}')).toBe(compileTemplate('#{1 + 1}'));
  });

  it('finds nested and quoted braces', () => {
    expect(findTemplateSlots("a #{ {1}.size() } b #{'}'} #{#{x}}")).toEqual([
      { open: 2, start: 4, end: 16, close: 17 },
      { open: 20, start: 22, end: 25, close: 26 },
      { open: 27, start: 29, end: 33, close: 34 },
    ]);
  });

  it('detects expressions', () => {
    expect([containsExpression('#{x}'), containsExpression('# {x}'), containsExpression('x')]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('reports syntax errors relative to the template text', () => {
    expect(() => compileTemplate('line one\nvalue: #{body.}')).toThrowError(
      expect.objectContaining({
        code: 'PEL_SYNTAX',
        details: expect.objectContaining({ line: 2, column: 15, offset: 23 }),
      }),
    );
  });

  it('evaluates with the caller utilities before the defaults', () => {
    expect(evaluateTemplate('#{@date.now()}', scope, { utilities: { date: { now: () => 'frozen' } } })).toBe(
      'frozen',
    );
  });
});
