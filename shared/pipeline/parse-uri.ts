/**
 * The pipeline URI front end: `datetime?format=dd.MM.yyyy|log` to the pipeline model. Values are
 * percent-decoded as RFC 3986 says (a `+` stays a plus); `|` and `&` inside `#{...}` do not split.
 */
import { buildScript, type DocumentPath, type SourceLocator } from './build-script';
import { pathKey } from './json-scanner';
import { checkSourceLength } from './limits';
import type { PipelineScript, ScalarSource, SourcePosition } from './model';
import { quote, syntaxError, unexpected } from './syntax-error';

interface UriEntry {
  key?: SourcePosition;
  value: SourcePosition;
  raw?: string;
}

class UriLocator implements SourceLocator {
  readonly entries = new Map<string, UriEntry>();

  keyAt(path: DocumentPath): SourcePosition | undefined {
    return this.entries.get(pathKey(path))?.key;
  }

  valueAt(path: DocumentPath): SourcePosition | undefined {
    return this.entries.get(pathKey(path))?.value;
  }

  scalarAt(path: DocumentPath): ScalarSource | undefined {
    const entry = this.entries.get(pathKey(path));
    return entry?.raw === undefined ? undefined : { style: 'uri', start: entry.value, raw: entry.raw };
  }
}

const at = (offset: number): SourcePosition => ({ line: 1, column: offset + 1 });

/**
 * Splits `text[from, to)` at `separator`, except inside `#{...}` (nested braces and quoted strings in
 * the expression are followed, so `#{a || b}` and `#{'}|'}` stay whole). Returns [start, end) pairs.
 */
export function splitOutsideExpressions(
  text: string,
  separator: string,
  from: number,
  to: number,
): [number, number][] {
  const parts: [number, number][] = [];
  let depth = 0;
  let quoteChar = '';
  let start = from;
  for (let i = from; i < to; i++) {
    const ch = text[i];
    if (depth > 0) {
      if (quoteChar) {
        if (ch === quoteChar) quoteChar = '';
      } else if (ch === "'" || ch === '"') quoteChar = ch;
      else if (ch === '{') depth++;
      else if (ch === '}') depth--;
    } else if (ch === '#' && text[i + 1] === '{') {
      depth = 1;
      i++;
    } else if (ch === separator) {
      parts.push([start, i]);
      start = i + 1;
    }
  }
  parts.push([start, to]);
  return parts;
}

/** Percent-decodes `text[from, to)`: `%XX` runs are UTF-8; a `%` without two hex digits stays as it is. */
function decode(text: string, from: number, to: number): string {
  let out = '';
  let i = from;
  while (i < to) {
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      let j = i;
      while (j < to && text[j] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(j + 1, j + 3))) j += 3;
      try {
        out += decodeURIComponent(text.slice(i, j));
      } catch {
        throw syntaxError(`Invalid percent-encoding ${quote(text.slice(i, j))}`, at(i), {
          hint: 'not UTF-8',
        });
      }
      i = j;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

/** Parses a one-line pipeline URI into the pipeline model; throws PIPELINE_SYNTAX with the column. */
export function parsePipelineUri(text: string): PipelineScript {
  checkSourceLength(text);
  try {
    return parseUri(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw unexpected(error);
  }
}

function parseUri(text: string): PipelineScript {
  let from = 0;
  let to = text.length;
  while (from < to && /\s/.test(text[from]!)) from++;
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  if (from === to) return buildScript(null, new UriLocator(), 'uri');
  const lineBreak = text.slice(from, to).search(/[\r\n]/);
  if (lineBreak !== -1) {
    throw syntaxError('A line break in a pipeline URI', at(from + lineBreak), {
      hint: 'a pipeline URI is one line; write a line break in a value as %0A',
    });
  }
  const locator = new UriLocator();
  const items: unknown[] = [];
  splitOutsideExpressions(text, '|', from, to).forEach(([segmentStart, segmentEnd], index) => {
    // Spaces around '|' are for readability only.
    let start = segmentStart;
    let end = segmentEnd;
    while (start < end && text[start] === ' ') start++;
    while (end > start && text[end - 1] === ' ') end--;
    if (start === end) {
      throw syntaxError(`Command ${index + 1} is empty`, at(segmentStart), {
        hint: "two '|' in a row, or a '|' at an end",
      });
    }
    const query = text.indexOf('?', start);
    const nameEnd = query === -1 || query >= end ? end : query;
    const name = text.slice(start, nameEnd);
    const path = ['pipeline', index];
    locator.entries.set(pathKey(path), { value: at(start) });
    locator.entries.set(pathKey([...path, name]), { key: at(start), value: at(nameEnd) });
    if (nameEnd === end) {
      items.push(name);
      return;
    }
    const params: Record<string, unknown> = {};
    for (const [pStart, pEnd] of splitOutsideExpressions(text, '&', nameEnd + 1, end)) {
      if (pStart === pEnd) continue;
      const eq = text.indexOf('=', pStart);
      const hasValue = eq !== -1 && eq < pEnd;
      const keyEnd = hasValue ? eq : pEnd;
      const key = decode(text, pStart, keyEnd);
      if (key === '') throw syntaxError(`A parameter of ${quote(name)} has no name`, at(pStart));
      // `?flag` without '=' is the empty string; its position is the name's.
      const valueStart = hasValue ? eq + 1 : pEnd;
      const value = decode(text, valueStart, pEnd);
      if (Object.hasOwn(params, key)) {
        // A repeated parameter is a list; the command's schema decides whether it may be one.
        const previous = params[key];
        Object.defineProperty(params, key, {
          value: Array.isArray(previous) ? [...previous, value] : [previous, value],
          enumerable: true,
          writable: true,
          configurable: true,
        });
        continue;
      }
      Object.defineProperty(params, key, { value, enumerable: true, writable: true, configurable: true });
      locator.entries.set(pathKey([...path, name, key]), {
        key: at(pStart),
        value: at(hasValue ? valueStart : pStart),
        raw: text.slice(valueStart, pEnd),
      });
    }
    items.push({ [name]: params });
  });
  return buildScript({ pipeline: items }, locator, 'uri');
}
