/** The methods a Java developer calls on strings, with Java's semantics (bounds errors, trim rules, regexes). */
import { pelError } from '../errors';
import { regexFullMatch, regexReplace, regexSplit } from '../regex';
import { concatStrings } from '../runtime';
import { deepEquals } from '../values';
import {
  type MethodEnv,
  argInt,
  argString,
  limitList,
  limitString,
  methodTable,
  outOfBounds,
} from './method-support';

function javaCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Java's String.replace(CharSequence, CharSequence): every literal occurrence, an empty target between chars. */
function replaceLiteral(s: string, target: string, replacement: string, env: MethodEnv): string {
  // The result's length is known before it is built, so an oversized one is refused without building it.
  let count = target === '' ? s.length + 1 : 0;
  if (target !== '')
    for (let i = s.indexOf(target); i >= 0; i = s.indexOf(target, i + target.length)) count++;
  const length = s.length + count * (replacement.length - target.length);
  if (length > env.rt.limits.maxStringLength)
    throw pelError('STRING_TOO_LONG', env.site, length, env.rt.limits.maxStringLength);
  if (target === '')
    return limitString(replacement + s.split('').join(replacement) + (s.length > 0 ? replacement : ''), env);
  return limitString(s.split(target).join(replacement), env);
}

function substring(s: string, begin: number, end: number, env: MethodEnv): string {
  if (begin < 0 || end > s.length || begin > end)
    outOfBounds(env, begin < 0 || begin > end ? begin : end, s.length);
  return s.substring(begin, end);
}

/** Java's trim: without leading and trailing characters up to U+0020 (a loop: a regex would be quadratic). */
function javaTrim(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && s.charCodeAt(from) <= 32) from++;
  while (to > from && s.charCodeAt(to - 1) <= 32) to--;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}

export const STRING_METHODS = methodTable<string>({
  length: { signature: 'length()', doc: 'The number of UTF-16 characters.', call: (s) => s.length },
  isEmpty: { signature: 'isEmpty()', doc: 'True when the length is 0.', call: (s) => s.length === 0 },
  isBlank: {
    signature: 'isBlank()',
    doc: 'True when empty or only whitespace.',
    call: (s) => s.trim() === '',
  },
  contains: {
    signature: 'contains(text)',
    doc: 'True when the text occurs in the string.',
    call: (s, a, env) => s.includes(argString(a, 0, env)),
  },
  startsWith: {
    signature: 'startsWith(prefix, offset?)',
    doc: 'True when the string starts with the prefix (at the offset).',
    call: (s, a, env) => {
      const offset = a.length > 1 ? argInt(a, 1, env) : 0;
      return offset >= 0 && s.startsWith(argString(a, 0, env), offset);
    },
  },
  endsWith: {
    signature: 'endsWith(suffix)',
    doc: 'True when the string ends with the suffix.',
    call: (s, a, env) => s.endsWith(argString(a, 0, env)),
  },
  indexOf: {
    signature: 'indexOf(text, from?)',
    doc: 'The first position of the text (from a position), or -1.',
    call: (s, a, env) => s.indexOf(argString(a, 0, env), a.length > 1 ? Math.max(0, argInt(a, 1, env)) : 0),
  },
  lastIndexOf: {
    signature: 'lastIndexOf(text, from?)',
    doc: 'The last position of the text (at or before a position), or -1.',
    call: (s, a, env) => {
      const text = argString(a, 0, env);
      if (a.length < 2) return s.lastIndexOf(text);
      const from = argInt(a, 1, env);
      return from < 0 ? -1 : s.lastIndexOf(text, from);
    },
  },
  substring: {
    signature: 'substring(begin, end?)',
    doc: 'The characters from begin (inclusive) to end (exclusive; default: the end).',
    call: (s, a, env) => substring(s, argInt(a, 0, env), a.length > 1 ? argInt(a, 1, env) : s.length, env),
  },
  charAt: {
    signature: 'charAt(index)',
    doc: 'The character at the index, as a string of length 1.',
    call: (s, a, env) => {
      const i = argInt(a, 0, env);
      return i >= 0 && i < s.length ? s[i] : outOfBounds(env, i, s.length);
    },
  },
  toUpperCase: {
    signature: 'toUpperCase()',
    doc: 'Upper case.',
    call: (s, _a, env) => limitString(s.toUpperCase(), env),
  },
  toLowerCase: {
    signature: 'toLowerCase()',
    doc: 'Lower case.',
    call: (s, _a, env) => limitString(s.toLowerCase(), env),
  },
  trim: {
    signature: 'trim()',
    doc: 'Without leading and trailing control characters and spaces.',
    call: (s) => javaTrim(s),
  },
  strip: { signature: 'strip()', doc: 'Without leading and trailing whitespace.', call: (s) => s.trim() },
  stripLeading: {
    signature: 'stripLeading()',
    doc: 'Without leading whitespace.',
    call: (s) => s.trimStart(),
  },
  stripTrailing: {
    signature: 'stripTrailing()',
    doc: 'Without trailing whitespace.',
    call: (s) => s.trimEnd(),
  },
  split: {
    signature: 'split(regex, limit?)',
    doc: "Splits around matches of a regular expression (Java's rules: trailing empty strings removed).",
    call: (s, a, env) =>
      limitList(
        regexSplit(argString(a, 0, env), s, a.length > 1 ? argInt(a, 1, env) : 0, env.rt, env.site),
        env,
      ),
  },
  replace: {
    signature: 'replace(target, replacement)',
    doc: 'Replaces every literal occurrence of target.',
    call: (s, a, env) => replaceLiteral(s, argString(a, 0, env), argString(a, 1, env), env),
  },
  replaceAll: {
    signature: 'replaceAll(regex, replacement)',
    doc: 'Replaces every match of a regular expression ($1 refers to a group).',
    call: (s, a, env) =>
      limitString(regexReplace(argString(a, 0, env), s, argString(a, 1, env), true, env.rt, env.site), env),
  },
  replaceFirst: {
    signature: 'replaceFirst(regex, replacement)',
    doc: 'Replaces the first match of a regular expression.',
    call: (s, a, env) =>
      limitString(regexReplace(argString(a, 0, env), s, argString(a, 1, env), false, env.rt, env.site), env),
  },
  matches: {
    signature: 'matches(regex)',
    doc: 'True when the whole string matches the regular expression.',
    call: (s, a, env) => regexFullMatch(argString(a, 0, env), s, env.rt, env.site),
  },
  concat: {
    signature: 'concat(text)',
    doc: 'The string followed by the text.',
    call: (s, a, env) => concatStrings(s, argString(a, 0, env), env.rt, env.site),
  },
  equals: { signature: 'equals(other)', doc: 'True when equal.', call: (s, a) => deepEquals(s, a[0]) },
  equalsIgnoreCase: {
    signature: 'equalsIgnoreCase(other)',
    doc: 'True when equal ignoring case.',
    call: (s, a) => typeof a[0] === 'string' && s.toLowerCase() === a[0].toLowerCase(),
  },
  compareTo: {
    signature: 'compareTo(other)',
    doc: 'Negative, 0 or positive, by character codes (as Java).',
    call: (s, a, env) => javaCompare(s, argString(a, 0, env)),
  },
  compareToIgnoreCase: {
    signature: 'compareToIgnoreCase(other)',
    doc: 'compareTo ignoring case.',
    call: (s, a, env) => javaCompare(s.toLowerCase(), argString(a, 0, env).toLowerCase()),
  },
  repeat: {
    signature: 'repeat(count)',
    doc: 'The string repeated count times.',
    call: (s, a, env) => {
      const n = argInt(a, 0, env);
      if (n < 0) return outOfBounds(env, n, 0);
      if (s.length * n > env.rt.limits.maxStringLength)
        throw pelError('STRING_TOO_LONG', env.site, s.length * n, env.rt.limits.maxStringLength);
      return limitString(s.repeat(n), env);
    },
  },
  toCharArray: {
    signature: 'toCharArray()',
    doc: 'The characters as a list of strings.',
    call: (s, _a, env) => limitList(s.split(''), env),
  },
  lines: {
    signature: 'lines()',
    doc: 'The lines (split at \\n, \\r\\n or \\r).',
    call: (s, _a, env) => {
      if (s === '') return [];
      const lines = s.split(/\r\n|\r|\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      return limitList(lines, env);
    },
  },
  hashCode: { signature: 'hashCode()', doc: "Java's String hash code.", call: (s) => javaHash(s) },
  toString: { signature: 'toString()', doc: 'The string itself.', call: (s) => s },
});
