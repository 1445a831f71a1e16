/** `@text`: string helpers that are null-safe (null in, null or a sensible default out). */
import { utilityError } from '../errors';
import { templateText } from '../values';
import {
  type UtilitySpec,
  capString,
  int,
  joinTexts,
  list,
  optionalInt,
  optionalText,
  replacedLength,
  text,
  textOrNull,
} from './support';

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

export const textUtility: UtilitySpec = {
  name: 'text',
  doc: 'Text helpers; null-safe unlike the string methods.',
  functions: {
    uuid: { signature: 'uuid()', doc: 'A random UUID (version 4).', fn: () => randomUuid() },
    upper: {
      signature: 'upper(text)',
      doc: 'Upper case; null stays null.',
      fn: (...a) => orNull('upper', a, (s) => s.toUpperCase()),
    },
    lower: {
      signature: 'lower(text)',
      doc: 'Lower case; null stays null.',
      fn: (...a) => orNull('lower', a, (s) => s.toLowerCase()),
    },
    trim: {
      signature: 'trim(text)',
      doc: 'Without surrounding whitespace; null stays null.',
      fn: (...a) => orNull('trim', a, (s) => s.trim()),
    },
    capitalize: {
      signature: 'capitalize(text)',
      doc: 'The first letter in upper case.',
      fn: (...a) => orNull('capitalize', a, (s) => s.charAt(0).toUpperCase() + s.slice(1)),
    },
    uncapitalize: {
      signature: 'uncapitalize(text)',
      doc: 'The first letter in lower case.',
      fn: (...a) => orNull('uncapitalize', a, (s) => s.charAt(0).toLowerCase() + s.slice(1)),
    },
    abbreviate: {
      signature: 'abbreviate(text, maxLength)',
      doc: "Shortened to maxLength with '...' at the end when longer.",
      fn: (...a) => {
        const s = textOrNull('abbreviate', a, 0);
        const max = int('abbreviate', a, 1);
        if (max < 4) throw utilityError('abbreviate: maxLength must be at least 4');
        return s === null || s.length <= max ? s : `${s.slice(0, max - 3)}...`;
      },
    },
    padLeft: {
      signature: 'padLeft(text, size, padding?)',
      doc: 'Padded at the start to size.',
      fn: (...a) => padTo('padLeft', a, true),
    },
    padRight: {
      signature: 'padRight(text, size, padding?)',
      doc: 'Padded at the end to size.',
      fn: (...a) => padTo('padRight', a, false),
    },
    join: {
      signature: 'join(list, separator?)',
      doc: 'The items as text, separated (default: no separator); null items print as nothing.',
      fn: (...a) =>
        joinTexts(
          'join',
          list('join', a, 0).map((v) => templateText(v)),
          optionalText('join', a, 1, ''),
        ),
    },
    split: {
      signature: 'split(text, separator)',
      doc: 'Splits at every literal separator (no regular expression; empty strings kept).',
      fn: (...a) => orNull('split', a, (s) => s.split(text('split', a, 1))),
    },
    replace: {
      signature: 'replace(text, search, replacement)',
      doc: 'Replaces every literal occurrence.',
      fn: (...a) =>
        orNull('replace', a, (s) => {
          const search = text('replace', a, 1);
          if (search === '') return s;
          const replacement = text('replace', a, 2);
          capString('replace', replacedLength(s, search, replacement));
          return s.split(search).join(replacement);
        }),
    },
    contains: {
      signature: 'contains(text, search)',
      doc: 'True when the text contains the search (false for null).',
      fn: (...a) => textOrNull('contains', a, 0)?.includes(text('contains', a, 1)) ?? false,
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
    isEmpty: {
      signature: 'isEmpty(text)',
      doc: 'True for null or an empty text.',
      fn: (...a) => !textOrNull('isEmpty', a, 0),
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
    substringBefore: {
      signature: 'substringBefore(text, separator)',
      doc: 'The text before the first separator (all of it when absent).',
      fn: (...a) =>
        orNull('substringBefore', a, (s) => {
          const i = s.indexOf(text('substringBefore', a, 1));
          return i < 0 ? s : s.slice(0, i);
        }),
    },
    substringAfter: {
      signature: 'substringAfter(text, separator)',
      doc: "The text after the first separator ('' when absent).",
      fn: (...a) =>
        orNull('substringAfter', a, (s) => {
          const sep = text('substringAfter', a, 1);
          const i = s.indexOf(sep);
          return i < 0 ? '' : s.slice(i + sep.length);
        }),
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
      doc: 'At most maxLength characters.',
      fn: (...a) => orNull('truncate', a, (s) => s.slice(0, Math.max(0, int('truncate', a, 1)))),
    },
    format: {
      signature: 'format(pattern, ...args)',
      doc: "Fills {0}, {1}, ... with the arguments: @text.format('{0} of {1}', 1, 2) is '1 of 2'.",
      fn: (...a) => {
        const pattern = text('format', a, 0);
        let length = pattern.length;
        return pattern.replace(/\{(\d+)\}/g, (m, i: string) => {
          const piece = Number(i) + 1 < a.length ? templateText(a[Number(i) + 1]) : m;
          capString('format', (length += piece.length));
          return piece;
        });
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
      signature: 'random(length?)',
      doc: 'Random letters and digits (default length 16; not for secrets).',
      fn: (...a) => {
        const n = optionalInt('random', a, 0, 16);
        capString('random', n);
        const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
        let s = '';
        for (let i = 0; i < n; i++) s += chars[Math.floor(Math.random() * chars.length)];
        return s;
      },
    },
  },
};
