import { describe, expect, it } from 'vitest';
import { DEFAULT_PEL_LIMITS } from './limits';
import { regexFullMatch, regexReplace, regexSplit } from './regex';
import { createRuntime } from './runtime';

const rt = createRuntime({ body: null, vars: {}, headers: {} }, undefined, {
  ...DEFAULT_PEL_LIMITS,
  matchesTimeoutMs: 5000,
});
const site = { source: '', start: 0, end: 0 };

/** Patterns whose meaning is the same in Java and JavaScript: our engine must agree with V8's. */
const patterns = [
  'a*b',
  '(ab|a)(c|bcd)',
  '[a-c]+x?',
  '\\d{2,4}',
  '(a|b)*?c',
  '^\\w+@\\w+\\.com$',
  'x(y(z)?)+',
  '.*',
  '(?:ab)+',
  '[^\\s]+',
  'a{0}b',
  '(a?)+b',
];
const inputs = [
  '',
  'b',
  'aab',
  'abcd',
  'ab',
  'xyzyz',
  '1234',
  '12',
  'me@host.com',
  'ccc',
  'ababab',
  'a b',
  'aaab',
];

describe('regex engine', () => {
  for (const p of patterns) {
    it(`agrees with V8 on ${p}`, () => {
      const js = new RegExp(`^(?:${p})$`);
      const jsGlobal = new RegExp(p, 'g');
      for (const s of inputs) {
        expect(regexFullMatch(p, s, rt, site), `${p} ~ ${s}`).toBe(js.test(s));
        expect(regexReplace(p, s, '<$0>', true, rt, site), `${p} in ${s}`).toBe(s.replace(jsGlobal, '<$&>'));
      }
    });
  }

  it.each([
    ['a,b,,c,,', ',', 0, ['a', 'b', '', 'c']],
    ['a,b,,c,,', ',', -1, ['a', 'b', '', 'c', '', '']],
    ['a,b,c', ',', 2, ['a', 'b,c']],
    ['boo:and:foo', 'o', 0, ['b', '', ':and:f']],
    ['abc', '', 0, ['a', 'b', 'c']],
  ])('splits %s by %s (limit %s) as Java', (text, pattern, limit, expected) => {
    expect(regexSplit(pattern, text, limit, rt, site)).toEqual(expected);
  });

  it('runs in linear time on patterns that backtrack catastrophically elsewhere', () => {
    const start = performance.now();
    expect(regexFullMatch('(a+)+$', `${'a'.repeat(5000)}!`, rt, site)).toBe(false);
    expect(regexFullMatch('(x+x+)+y', 'x'.repeat(5000), rt, site)).toBe(false);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
