/** Maps a character offset inside a string value (where a PEL error is) back to a line and column in the source. */
import type { PipelineScript, PipelineStep, ScalarSource, SourcePosition } from './model';

/** One source line of a scalar: its value characters and, for each, its index in `raw`. */
interface SourceLine {
  text: string;
  /** Index in `raw` of each character of `text` (escapes decoded: one entry per decoded UTF-16 unit). */
  rawIndex: number[];
  /** Index in `raw` just after the line's last character. */
  rawEnd: number;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPE_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The lines of `raw` between `from` and `to`, each as [start, end) without its line break. */
function splitLines(raw: string, from: number, to: number): [number, number][] {
  const lines: [number, number][] = [];
  let start = from;
  for (;;) {
    const nl = raw.indexOf('\n', start);
    if (nl === -1 || nl >= to) {
      lines.push([start, to]);
      return lines;
    }
    lines.push([start, nl > start && raw[nl - 1] === '\r' ? nl - 1 : nl]);
    start = nl + 1;
  }
}

/** Decodes one line of a flow scalar (plain, 'single' or "double"), keeping each character's raw index. */
function decodeLine(raw: string, start: number, end: number, style: ScalarSource['style']): SourceLine {
  const text: string[] = [];
  const rawIndex: number[] = [];
  for (let i = start; i < end; i++) {
    const ch = raw[i]!;
    if (style === 'single' && ch === "'" && raw[i + 1] === "'") {
      text.push("'");
      rawIndex.push(i++);
    } else if (style === 'double' && ch === '\\' && i + 1 === end) {
      // A line continuation: the line break is not part of the value.
    } else if (style === 'double' && ch === '\\') {
      const kind = raw[i + 1]!;
      const hexLength = HEX_ESCAPE_LENGTH[kind];
      if (hexLength !== undefined) {
        const code = parseInt(raw.slice(i + 2, i + 2 + hexLength), 16);
        const decoded = Number.isNaN(code) ? '' : String.fromCodePoint(code);
        for (const unit of decoded.split('')) {
          text.push(unit);
          rawIndex.push(i);
        }
        i += 1 + hexLength;
      } else {
        text.push(SIMPLE_ESCAPES[kind] ?? kind);
        rawIndex.push(i++);
      }
    } else if (style === 'uri' && ch === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      // A run of %XX escapes is one UTF-8 sequence: decode it whole, every character maps to its first '%'.
      let j = i;
      while (j < end && raw[j] === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(j + 1, j + 3))) j += 3;
      let decoded: string;
      try {
        decoded = decodeURIComponent(raw.slice(i, j));
      } catch {
        decoded = raw.slice(i, j);
      }
      for (const unit of decoded.split('')) {
        text.push(unit);
        rawIndex.push(i);
      }
      i = j - 1;
    } else {
      text.push(ch);
      rawIndex.push(i);
    }
  }
  return { text: text.join(''), rawIndex, rawEnd: end };
}

/** The source lines of a scalar, with the indentation and quotes that are not part of the value removed. */
function sourceLines(source: ScalarSource): SourceLine[] {
  const { raw, style } = source;
  if (style === 'literal' || style === 'folded') {
    const headerEnd = raw.indexOf('\n');
    if (headerEnd === -1) return [];
    const lines = splitLines(raw, headerEnd + 1, raw.length);
    const first = lines.find(([s, e]) => raw.slice(s, e).trim() !== '');
    const indent = first ? raw.slice(first[0], first[1]).search(/\S/) : 0;
    return lines.map(([s, e]) => {
      let from = s;
      while (from < e && from - s < indent && raw[from] === ' ') from++;
      return decodeLine(raw, from, e, 'plain');
    });
  }
  const quoted = style === 'single' || style === 'double';
  const from = quoted ? 1 : 0;
  const to = quoted && raw.length > 1 ? raw.length - 1 : raw.length;
  const lines = splitLines(raw, from, to);
  return lines.map(([s, e], i) => {
    // Folding trims the whitespace around line breaks (not at the value's own start and end).
    if (i > 0) while (s < e && (raw[s] === ' ' || raw[s] === '\t')) s++;
    if (i < lines.length - 1) while (e > s && (raw[e - 1] === ' ' || raw[e - 1] === '\t')) e--;
    return decodeLine(raw, s, e, style === 'uri' ? 'uri' : style);
  });
}

/**
 * The index in `raw` of the value's character at `offset`: the source lines are matched against the
 * value in order, with the folded line breaks and spaces between them skipped. Undefined when the
 * lines do not match the value (a form we do not model), so the caller falls back to the value start.
 */
function rawIndexOf(source: ScalarSource, value: string, offset: number): number | undefined {
  const lines = sourceLines(source);
  let p = 0;
  let previousEnd = 0;
  for (const line of lines) {
    while (!value.startsWith(line.text, p)) {
      if (p >= value.length || (value[p] !== ' ' && value[p] !== '\n')) return undefined;
      p++;
    }
    if (offset < p) return previousEnd;
    if (offset < p + line.text.length) return line.rawIndex[offset - p];
    p += line.text.length;
    previousEnd = line.rawEnd;
  }
  return previousEnd;
}

/** The source position of index `index` in a scalar's raw text. */
function positionInRaw(source: ScalarSource, index: number): SourcePosition {
  let line = source.start.line;
  let lineStart = -1;
  for (let i = source.raw.indexOf('\n'); i !== -1 && i < index; i = source.raw.indexOf('\n', i + 1)) {
    line++;
    lineStart = i;
  }
  return lineStart === -1
    ? { line, column: source.start.column + index }
    : { line, column: index - lineStart };
}

/**
 * Where the character at `offset` of a string value is in the source: exact for plain, quoted and URI
 * values on one line and for block scalars line by line; the value's start when it cannot be told.
 */
export function locateInScalar(source: ScalarSource, value: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, value.length));
  const index = rawIndexOf(source, value, clamped);
  if (index !== undefined) return positionInRaw(source, index);
  const quoted = source.style === 'single' || source.style === 'double';
  return quoted ? positionInRaw(source, 1) : source.start;
}

/**
 * Maps an offset inside a step parameter's string value (e.g. where a PEL error is) to the source, so
 * that run-time errors point into the pipeline text. `parameter` '' is the default value.
 */
export function locateInParameter(
  step: PipelineStep,
  parameter: string,
  offset: number,
): SourcePosition | undefined {
  const value = parameter === '' ? step.defaultValue : step.params[parameter];
  const source = step.paramSources?.[parameter];
  if (source && typeof value === 'string') return locateInScalar(source, value, offset);
  return step.paramPositions?.[parameter];
}

/** The same as `locateInParameter` for a top-level value of `headers` or `vars`. */
export function locateInSection(
  script: PipelineScript,
  section: 'headers' | 'vars',
  name: string,
  offset: number,
): SourcePosition | undefined {
  const value = script[section][name];
  const source = script.sectionSources?.[section]?.[name];
  if (source && typeof value === 'string') return locateInScalar(source, value, offset);
  return script.sectionPositions?.[section]?.[name];
}
