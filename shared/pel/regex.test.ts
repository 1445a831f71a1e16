import { describe, expect, it } from 'vitest';
import { DEFAULT_PEL_LIMITS } from './limits';
import { isPipeworkError } from '../errors';
import { regexFullMatch, regexReplace, regexSplit } from './regex';
import { createRuntime } from './runtime';

const rt = createRuntime({ body: null, vars: {}, headers: {} }, undefined, {
  ...DEFAULT_PEL_LIMITS,
  maxRegexWork: 100_000_000,
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

describe('Java syntax on RE2', () => {
  it.each([
    ['A', '\\u0041', true],
    ['A', '\\0101', true],
    ['\u001b', '\\e', true],
    ['\u0001', '\\cA', true],
    ['a', '\\p{Alpha}', true],
    ['é', '\\p{Alpha}', false],
    ['é', '\\p{IsL}', true],
    ['É', '\\p{javaUpperCase}', true],
    ['x', '[\\p{Lower}&]', true],
    ['\u000b', '\\s', true],
    ['\r', '.', false],
    ['\u2028', '.', false],
    ['\r', '(?s).', true],
    ['a\rb', '(?s:a.)b', true],
    ['\u00a0', '\\h', true],
    ['\r\n', '\\R', true],
    ['aaa', 'a++', true],
    ['ab', 'a?+b', true],
    ['a+', 'a\\++', true],
    ['AB', '(?iu)ab', true],
    ['ab', 'a(?<name>b)', true],
    ['a.b', 'a\\Q.\\Eb', true],
    ['abc\n', 'abc\\Z', true],
  ])('%j matches %s: %s', (text, pattern, expected) => {
    expect(regexFullMatch(pattern, text, rt, site)).toBe(expected);
  });

  it.each([
    ['(a)\\1', 'backreferences'],
    ['(?<n>a)\\k<n>', 'backreferences'],
    ['(?=a)a', 'lookahead'],
    ['(?<!a)b', 'lookbehind'],
    ['(?>a)', 'atomic'],
    ['[a&&b]', 'intersection'],
    ['[a[b]]', 'nested'],
    ['(?x)a', "flag 'x'"],
    ['\\p{InGreek}', 'unknown property'],
    ['[a', 'unclosed'],
    ['*a', 'missing argument to repetition operator'],
  ])('refuses %s, naming %s', (pattern, words) => {
    let error: unknown;
    try {
      regexFullMatch(pattern, 'a', rt, site);
    } catch (e) {
      error = e;
    }
    expect(isPipeworkError(error) && error.details.reason).toBe('BAD_REGEX');
    expect((error as Error).message).toContain(words);
  });

  it('refuses a call whose work (text length times program size) is past the limit, before it starts', () => {
    const small = createRuntime({ body: null, vars: {}, headers: {} }, undefined, DEFAULT_PEL_LIMITS);
    const start = performance.now();
    expect(() => regexFullMatch('(a|a)+b', 'a'.repeat(1_000_000), small, site)).toThrow(/could cost/);
    expect(regexFullMatch('(a|a)+b', 'a'.repeat(30), small, site)).toBe(false);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
