/** `@text`: text helpers with the real product's names; null-safe (null in, null or a sensible default out). */
import { utilityError } from '../errors';
import { regexTest } from '../regex';
import { templateText } from '../values';
import {
  type UtilitySpec,
  capString,
  int,
  itemsOf,
  joinTexts,
  listOrText,
  optionalInt,
  optionalText,
  replacedLength,
  text,
  textOrNull,
} from './support';
import { detectLanguage } from './text-lang';
import { escapeCsv, fillPattern, formatEach, toHtml } from './text-format';

function randomUuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  const hex = [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

function orNull(fn: string, a: unknown[], f: (s: string) => unknown): unknown {
  const s = textOrNull(fn, a, 0);
  return s === null ? null : f(s);
}

function padTo(fn: string, a: unknown[], left: boolean): unknown {
  const s = textOrNull(fn, a, 0);
  if (s === null) return null;
  const size = int(fn, a, 1);
  capString(fn, size);
  const padChar = optionalText(fn, a, 2, ' ');
  if (padChar === '') throw utilityError(`${fn}: the padding must not be empty`);
  return left ? s.padStart(size, padChar) : s.padEnd(size, padChar);
}

/** indexOf / lastIndexOf with an optional offset; -1 for null. */
function find(fn: string, a: unknown[], last: boolean): number {
  const s = textOrNull(fn, a, 0);
  if (s === null) return -1;
  const needle = text(fn, a, 1);
  if (a[2] === undefined || a[2] === null) return last ? s.lastIndexOf(needle) : s.indexOf(needle);
  const offset = int(fn, a, 2);
  return last ? s.lastIndexOf(needle, offset) : s.indexOf(needle, offset);
}

/** Items as texts, null items left out (the real product's concat skips them). */
function textsOf(items: unknown[]): string[] {
  return items.filter((v) => v !== null && v !== undefined).map((v) => templateText(v));
}

/** The needles of `contains`: a list, or one text. */
function needlesOf(fn: string, a: unknown[]): string[] {
  const v = a[1];
  if (Array.isArray(v)) return v.map((x) => templateText(x));
  return [text(fn, a, 1)];
}

export const textUtility: UtilitySpec = {
  name: 'text',
  doc: 'Text helpers; null-safe unlike the string methods. A list parameter also takes comma-separated text.',
  functions: {
    uuid: { signature: 'uuid()', doc: 'A random UUID (version 4).', fn: () => randomUuid() },
    upperCase: {
      signature: 'upperCase(text)',
      doc: 'Upper case; null stays null.',
      fn: (...a) => orNull('upperCase', a, (s) => s.toUpperCase()),
    },
    lowerCase: {
      signature: 'lowerCase(text)',
      doc: 'Lower case; null stays null.',
      fn: (...a) => orNull('lowerCase', a, (s) => s.toLowerCase()),
    },
    trim: {
      signature: 'trim(text)',
      doc: 'Without surrounding whitespace; null stays null.',
      fn: (...a) => orNull('trim', a, (s) => s.trim()),
    },
    firstCharUpper: {
      signature: 'firstCharUpper(text)',
      doc: "The first character in upper case: @text.firstCharUpper('hello') is 'Hello'.",
      fn: (...a) => orNull('firstCharUpper', a, (s) => s.charAt(0).toUpperCase() + s.slice(1)),
    },
    firstCharLower: {
      signature: 'firstCharLower(text)',
      doc: 'The first character in lower case.',
      fn: (...a) => orNull('firstCharLower', a, (s) => s.charAt(0).toLowerCase() + s.slice(1)),
    },
    shorten: {
      signature: 'shorten(text, length)',
      doc: "At most length characters, ending in '...' when cut: @text.shorten('Hello World', 8) is 'Hello...'.",
      fn: (...a) => {
        const s = textOrNull('shorten', a, 0);
        const max = int('shorten', a, 1);
        if (max < 0) throw utilityError('shorten: length must not be negative');
        if (s === null || s.length <= max) return s;
        return max < 4 ? s.slice(0, max) : `${s.slice(0, max - 3)}...`;
      },
    },
    leftPad: {
      signature: 'leftPad(text, size)',
      overloads: ['leftPad(text, size, padChar)'],
      doc: "Padded at the start to size (with spaces or padChar): @text.leftPad('7', 3, '0') is '007'.",
      fn: (...a) => padTo('leftPad', a, true),
    },
    rightPad: {
      signature: 'rightPad(text, size)',
      overloads: ['rightPad(text, size, padChar)'],
      doc: 'Padded at the end to size (with spaces or padChar).',
      fn: (...a) => padTo('rightPad', a, false),
    },
    append: {
      signature: 'append(basetext, text)',
      doc: 'The text appended to the base text; a null side counts as empty.',
      fn: (...a) => {
        const parts = [textOrNull('append', a, 0) ?? '', textOrNull('append', a, 1) ?? ''];
        return joinTexts('append', parts, '');
      },
    },
    concat: {
      signature: 'concat(separator, collection)',
      overloads: ['concat(separator, items)'],
      doc: "The items joined by the separator, nulls left out: @text.concat('-', {'a', null, 1}) and @text.concat('-', 'a', 1) are 'a-1'.",
      fn: (...a) =>
        joinTexts(
          'concat',
          textsOf(a.length === 2 && Array.isArray(a[1]) ? a[1] : a.slice(1)),
          optionalText('concat', a, 0, ''),
        ),
    },
    commajoin: {
      signature: 'commajoin(collection)',
      doc: "The items joined by ',' (nulls left out): @text.commajoin({'a', 'b'}) is 'a,b'.",
      fn: (...a) => joinTexts('commajoin', textsOf(itemsOf('commajoin', a)), ','),
    },
    concatAndFormat: {
      signature: 'concatAndFormat(separator, collection, pel)',
      doc: "Each item formatted by a PEL expression (a bare name is a field of the item, #this the item), then joined: @text.concatAndFormat(', ', {{'n': 'a'}, {'n': 'b'}}, 'n.toUpperCase()') is 'A, B'.",
      fn: (...a) => {
        const items = listOrText('concatAndFormat', a, 1);
        const formatted = formatEach('concatAndFormat', items, text('concatAndFormat', a, 2));
        return joinTexts('concatAndFormat', textsOf(formatted), optionalText('concatAndFormat', a, 0, ''));
      },
    },
    split: {
      signature: 'split(text, token)',
      doc: 'Splits at every literal token (no regular expression; empty strings kept); null gives an empty list.',
      fn: (...a) => {
        const s = textOrNull('split', a, 0);
        return s === null ? [] : s.split(text('split', a, 1));
      },
    },
    replaceAll: {
      signature: 'replaceAll(text, needle, replacement)',
      doc: 'Replaces every literal occurrence of the needle.',
      fn: (...a) =>
        orNull('replaceAll', a, (s) => {
          const needle = text('replaceAll', a, 1);
          if (needle === '') return s;
          const replacement = textOrNull('replaceAll', a, 2) ?? '';
          capString('replaceAll', replacedLength(s, needle, replacement));
          return s.split(needle).join(replacement);
        }),
    },
    replaceCharAt: {
      signature: 'replaceCharAt(text, pos, c)',
      doc: "The character at pos replaced by c: @text.replaceCharAt('cat', 0, 'b') is 'bat'.",
      fn: (...a) =>
        orNull('replaceCharAt', a, (s) => {
          const pos = int('replaceCharAt', a, 1);
          if (pos < 0 || pos >= s.length)
            throw utilityError(`replaceCharAt: position ${pos} is outside the text (length ${s.length})`);
          return s.slice(0, pos) + text('replaceCharAt', a, 2) + s.slice(pos + 1);
        }),
    },
    contains: {
      signature: 'contains(text, needles)',
      doc: 'True when the text contains the needle, or any of a list of needles (false for null).',
      fn: (...a) => {
        const s = textOrNull('contains', a, 0);
        const needles = needlesOf('contains', a);
        return s !== null && needles.some((n) => s.includes(n));
      },
    },
    startsWith: {
      signature: 'startsWith(text, prefix)',
      doc: 'True when the text starts with the prefix (false for null).',
      fn: (...a) => textOrNull('startsWith', a, 0)?.startsWith(text('startsWith', a, 1)) ?? false,
    },
    endsWith: {
      signature: 'endsWith(text, suffix)',
      doc: 'True when the text ends with the suffix (false for null).',
      fn: (...a) => textOrNull('endsWith', a, 0)?.endsWith(text('endsWith', a, 1)) ?? false,
    },
    matches: {
      signature: 'matches(text, regexp)',
      doc: "True when the whole text matches the Java regular expression (false for null): @text.matches('ab12', '[a-z]+\\\\d+').",
      fn: (...a) => {
        const s = textOrNull('matches', a, 0);
        const pattern = text('matches', a, 1);
        return s !== null && regexTest(pattern, s, true);
      },
    },
    indexOf: {
      signature: 'indexOf(text, needle)',
      overloads: ['indexOf(text, needle, offset)'],
      doc: 'The first position of the needle (from offset), or -1.',
      fn: (...a) => find('indexOf', a, false),
    },
    lastIndexOf: {
      signature: 'lastIndexOf(text, needle)',
      overloads: ['lastIndexOf(text, needle, offset)'],
      doc: 'The last position of the needle (searching back from offset), or -1.',
      fn: (...a) => find('lastIndexOf', a, true),
    },
    prefix: {
      signature: 'prefix(text, stop)',
      doc: "The text before the first stop (all of it when there is none): @text.prefix('a/b/c', '/') is 'a'.",
      fn: (...a) =>
        orNull('prefix', a, (s) => {
          const i = s.indexOf(text('prefix', a, 1));
          return i < 0 ? s : s.slice(0, i);
        }),
    },
    suffix: {
      signature: 'suffix(text, stop)',
      doc: "The text after the last stop (all of it when there is none): @text.suffix('a.tar.gz', '.') is 'gz'.",
      fn: (...a) =>
        orNull('suffix', a, (s) => {
          const stop = text('suffix', a, 1);
          const i = s.lastIndexOf(stop);
          return i < 0 || stop === '' ? s : s.slice(i + stop.length);
        }),
    },
    substring: {
      signature: 'substring(text, beginIndex)',
      overloads: ['substring(text, beginIndex, endIndex)'],
      doc: 'The characters from beginIndex (inclusive) to endIndex (exclusive, default the end); positions are clamped to the text.',
      fn: (...a) =>
        orNull('substring', a, (s) => {
          const begin = Math.max(0, int('substring', a, 1));
          const end = Math.min(s.length, optionalInt('substring', a, 2, s.length));
          return begin >= end ? '' : s.slice(begin, end);
        }),
    },
    isEmpty: {
      signature: 'isEmpty(text)',
      doc: 'True for null or an empty text.',
      fn: (...a) => !textOrNull('isEmpty', a, 0),
    },
    isAllEmpty: {
      signature: 'isAllEmpty(text)',
      doc: 'True when every given text (several arguments or a list) is null or empty.',
      fn: (...a) => itemsOf('isAllEmpty', a).every((v) => v === null || v === undefined || v === ''),
    },
    isBlank: {
      signature: 'isBlank(text)',
      doc: 'True for null, empty or whitespace only.',
      fn: (...a) => (textOrNull('isBlank', a, 0) ?? '').trim() === '',
    },
    length: {
      signature: 'length(text)',
      doc: 'The length (0 for null).',
      fn: (...a) => (textOrNull('length', a, 0) ?? '').length,
    },
    toAlphaNumeric: {
      signature: 'toAlphaNumeric(text)',
      doc: "Only the letters and digits: @text.toAlphaNumeric('a-b_1 2!') is 'ab12'.",
      fn: (...a) => orNull('toAlphaNumeric', a, (s) => s.replace(/[^\p{L}\p{N}]/gu, '')),
    },
    toHtml: {
      signature: 'toHtml(text)',
      doc: "HTML-escaped, line breaks as <br/>: @text.toHtml('a<b') is 'a&lt;b'.",
      fn: (...a) => orNull('toHtml', a, toHtml),
    },
    escapeCsvValue: {
      signature: 'escapeCsvValue(value)',
      doc: 'One CSV field: quoted with doubled quotes when it holds a separator, quote or line break.',
      fn: (...a) => (a[0] === null || a[0] === undefined ? null : escapeCsv(templateText(a[0]))),
    },
    lang: {
      signature: 'lang(text)',
      doc: "The language, as its English name in capitals ('GERMAN'); null when the text is too short to tell.",
      fn: (...a) => orNull('lang', a, detectLanguage),
    },
    reverse: {
      signature: 'reverse(text)',
      doc: 'The characters in reverse order.',
      fn: (...a) => orNull('reverse', a, (s) => [...s].reverse().join('')),
    },
    repeat: {
      signature: 'repeat(text, count)',
      doc: 'The text repeated.',
      fn: (...a) =>
        orNull('repeat', a, (s) => {
          const n = int('repeat', a, 1);
          if (n < 0) throw utilityError('repeat: count must not be negative');
          capString('repeat', s.length * n);
          return s.repeat(n);
        }),
    },
    truncate: {
      signature: 'truncate(text, maxLength)',
      doc: "At most maxLength characters (no '...'; see shorten).",
      fn: (...a) => orNull('truncate', a, (s) => s.slice(0, Math.max(0, int('truncate', a, 1)))),
    },
    format: {
      signature: 'format(pattern, args)',
      doc: "Fills {0}, {1}, ... with the arguments (a list, or several): @text.format('{0} of {1}', 1, 2) is '1 of 2'.",
      fn: (...a) => {
        const args = a.length === 2 && Array.isArray(a[1]) ? a[1] : a.slice(1);
        return fillPattern('format', text('format', a, 0), args);
      },
    },
    defaultIfEmpty: {
      signature: 'defaultIfEmpty(text, fallback)',
      doc: 'The fallback when the text is null or empty.',
      fn: (...a) => {
        const s = textOrNull('defaultIfEmpty', a, 0);
        return s ? s : a[1];
      },
    },
    random: {
      signature: 'random(size)',
      doc: 'Random letters and digits (default size 16; not for secrets).',
      fn: (...a) => {
        const n = optionalInt('random', a, 0, 16);
        if (n < 0) throw utilityError('random: size must not be negative');
        capString('random', n);
        const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
        let s = '';
        for (let i = 0; i < n; i++) s += chars[Math.floor(Math.random() * chars.length)];
        return s;
      },
    },
  },
};
