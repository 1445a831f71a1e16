/**
 * Finds the string values of a YAML or JSON pipeline text that hold `#{...}`, with where each one is written,
 * line by line and without a full parse (a 2,000-line pipeline is scanned in well under a millisecond). The
 * result is the shared `ScalarSource` form, so shared/pipeline/locate maps offsets in a value to line/column.
 */
import type { ScalarSource } from '../../../shared/pipeline/model';
import { splitOutsideExpressions } from '../../../shared/pipeline/parse-uri';

export interface ScalarInText extends ScalarSource {
  /** The string value as the parser reads it (quotes, escapes and block indentation removed). */
  value: string;
}

/** Something worth telling about an expression the YAML reader will never see. */
export interface ScanWarning {
  line: number;
  column: number;
  endColumn: number;
  message: string;
}

export interface ScanResult {
  scalars: ScalarInText[];
  warnings: ScanWarning[];
}

const BLOCK_HEADER = /^[|>][-+0-9]*\s*(#.*)?$/;
const COMMENTED_EXPRESSION =
  "YAML reads ' #' as the start of a comment, so this expression is ignored: put the value in quotes";

function indentOf(line: string): number {
  let i = 0;
  while (line[i] === ' ') i++;
  return i;
}

/** The index just after the closing quote of a quoted YAML scalar starting at `start`, or -1. */
function closingQuote(line: string, start: number): number {
  const quote = line[start];
  for (let i = start + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

function decodeDouble(raw: string): string | undefined {
  try {
    return JSON.parse(raw.replace(/\\([xX])([0-9a-fA-F]{2})/g, '\\u00$2')) as string;
  } catch {
    return undefined;
  }
}

function quoted(line: string, lineNumber: number, start: number, end: number): ScalarInText | undefined {
  const raw = line.slice(start, end);
  const style = raw[0] === '"' ? 'double' : 'single';
  const value = style === 'double' ? decodeDouble(raw) : raw.slice(1, -1).replace(/''/g, "'");
  return value === undefined
    ? undefined
    : { style, start: { line: lineNumber, column: start + 1 }, raw, value };
}

/** Where the value of a `key: value` or `- value` line starts, and the column its block content must exceed. */
function valueStart(line: string): { at: number; parentIndent: number } {
  let at = indentOf(line);
  while (line[at] === '-' && (line[at + 1] === ' ' || at + 1 === line.length)) {
    at++;
    while (line[at] === ' ') at++;
  }
  const parentIndent = at;
  if (line[at] === '"' || line[at] === "'") {
    const end = closingQuote(line, at);
    const colon = end < 0 ? -1 : line.slice(end).search(/^\s*:(\s|$)/);
    if (colon < 0) return { at, parentIndent };
    at = end + line.slice(end).indexOf(':') + 1;
  } else {
    const colon = line.slice(at).search(/:(\s|$)/);
    const comment = line.slice(at).search(/(^|\s)#/);
    if (colon < 0 || (comment >= 0 && comment < colon) || line[at] === '[' || line[at] === '{')
      return { at, parentIndent };
    at += colon + 1;
  }
  while (line[at] === ' ' || line[at] === '\t') at++;
  return { at, parentIndent };
}

/** Quoted strings inside a flow collection (`[a, "#{x}"]`, `{k: '#{y}'}`). */
function flowStrings(line: string, lineNumber: number, from: number, out: ScanResult): void {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '#' && /\s/.test(line[i - 1] ?? ' ')) return;
    if (line[i] !== '"' && line[i] !== "'") continue;
    const end = closingQuote(line, i);
    if (end < 0) return;
    const scalar = line.slice(i, end).includes('#{') ? quoted(line, lineNumber, i, end) : undefined;
    if (scalar) out.scalars.push(scalar);
    i = end - 1;
  }
}

interface OpenBlock {
  parentIndent: number;
  header: { line: number; column: number; text: string };
  lines: string[];
}

function closeBlock(block: OpenBlock, out: ScanResult): void {
  while (block.lines.length > 0 && block.lines[block.lines.length - 1]!.trim() === '') block.lines.pop();
  const body = block.lines.join('\n');
  if (!body.includes('#{')) return;
  const first = block.lines.find((l) => l.trim() !== '') ?? '';
  const indent = indentOf(first);
  const value = block.lines.map((l) => l.slice(Math.min(indent, indentOf(l)))).join('\n');
  const { line, column, text } = block.header;
  out.scalars.push({ style: 'literal', start: { line, column }, raw: `${text}\n${body}`, value });
}

/** The `#{`-holding string values of a YAML pipeline text, given as its lines. */
export function scanYaml(lines: readonly string[]): ScanResult {
  const out: ScanResult = { scalars: [], warnings: [] };
  let block: OpenBlock | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (block) {
      if (line.trim() === '' || indentOf(line) > block.parentIndent) {
        block.lines.push(line);
        continue;
      }
      closeBlock(block, out);
      block = null;
    }
    const hasExpression = line.includes('#{');
    if (!hasExpression && !line.includes('|') && !line.includes('>')) continue;
    const { at, parentIndent } = valueStart(line);
    const first = line[at];
    if (first === '|' || first === '>') {
      if (BLOCK_HEADER.test(line.slice(at)))
        block = { parentIndent, header: { line: i + 1, column: at + 1, text: line.slice(at) }, lines: [] };
      continue;
    }
    if (!hasExpression) continue;
    if (first === '"' || first === "'") {
      const end = closingQuote(line, at);
      const scalar = end < 0 ? undefined : quoted(line, i + 1, at, end);
      if (scalar?.value.includes('#{')) out.scalars.push(scalar);
    } else if (first === '[' || first === '{') flowStrings(line, i + 1, at, out);
    else {
      const comment = line.slice(at).search(/(^|\s)#/);
      const end = comment < 0 ? line.length : at + comment;
      const raw = line.slice(at, end).trimEnd();
      if (raw.includes('#{'))
        out.scalars.push({ style: 'plain', start: { line: i + 1, column: at + 1 }, raw, value: raw });
      const hidden = comment < 0 ? -1 : line.indexOf('#{', end);
      if (hidden >= 0 && line.slice(end, hidden).trim() === '')
        out.warnings.push({
          line: i + 1,
          column: hidden + 1,
          endColumn: line.length + 1,
          message: COMMENTED_EXPRESSION,
        });
    }
  }
  if (block) closeBlock(block, out);
  return out;
}

/** The `#{`-holding strings of a JSON pipeline text, given as its lines (JSON strings never span lines). */
export function scanJson(lines: readonly string[]): ScanResult {
  const out: ScanResult = { scalars: [], warnings: [] };
  lines.forEach((line, i) => {
    if (!line.includes('#{')) return;
    for (let at = line.indexOf('"'); at >= 0;) {
      const end = closingQuote(line, at);
      if (end < 0) return;
      const raw = line.slice(at, end);
      if (raw.includes('#{')) {
        const value = decodeDouble(raw);
        if (value !== undefined)
          out.scalars.push({ style: 'double', start: { line: i + 1, column: at + 1 }, raw, value });
      }
      at = line.indexOf('"', end);
    }
  });
  return out;
}

/** Percent-decodes as the URI parser does: runs of `%XX` as UTF-8, anything else as it is. */
function decodePercent(raw: string): string {
  return raw.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** The `#{`-holding parameter values of a one-line pipeline URI (`log?message=#{body}|...`). */
export function scanUri(lines: readonly string[]): ScanResult {
  const out: ScanResult = { scalars: [], warnings: [] };
  const text = lines[0] ?? '';
  if (lines.length > 1 || !text.includes('#{')) return out;
  for (const [start, end] of splitOutsideExpressions(text, '|', 0, text.length)) {
    const query = text.indexOf('?', start);
    if (query < 0 || query >= end) continue;
    for (const [from, to] of splitOutsideExpressions(text, '&', query + 1, end)) {
      const eq = text.indexOf('=', from);
      if (eq < 0 || eq >= to) continue;
      const raw = text.slice(eq + 1, to);
      if (raw.includes('#{'))
        out.scalars.push({
          style: 'uri',
          start: { line: 1, column: eq + 2 },
          raw,
          value: decodePercent(raw),
        });
    }
  }
  return out;
}

/** The scanner for a pipeline form. */
export function scanPipeline(lines: readonly string[], form: 'yaml' | 'json' | 'uri'): ScanResult {
  return form === 'json' ? scanJson(lines) : form === 'uri' ? scanUri(lines) : scanYaml(lines);
}
