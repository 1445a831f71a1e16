/**
 * Key wildcards: `*` within one segment, `**` across any number of segments (zero included). Patterns are
 * compiled once and matched greedily from the left without backtracking and without building a RegExp from
 * user input, so a hostile pattern cannot make matching explode.
 */
import { PipeworkError } from '../errors';
import { MAX_KEY_LENGTH, PROPERTY_ROOTS, isPropertyRoot, segmentProblem } from './property-key';

/** One segment of a pattern: a fixed text, a glob with `*` inside it, or `**`. */
export type SegmentPattern =
  | { kind: 'literal'; text: string }
  | { kind: 'glob'; pieces: string[]; minLength: number }
  | { kind: 'globstar' };

export interface KeyPattern {
  /** The pattern as given, leading `/` removed. */
  source: string;
  segments: SegmentPattern[];
  hasWildcard: boolean;
  /** The text before the first `*` (what a range scan can use). */
  literalPrefix: string;
  /** True for a key this pattern matches. */
  matches(key: string): boolean;
}

/** The text with control characters replaced, so an error message never carries a NUL or a newline. */
function printable(text: string): string {
  let out = '';
  for (const ch of text) out += ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 ? '?' : ch;
  return out;
}

function invalid(pattern: string, reason: string): PipeworkError {
  const shown = printable(pattern.length > 80 ? `${pattern.slice(0, 80)}...` : pattern);
  return new PipeworkError('KEY_INVALID', `Invalid key pattern '${shown}': ${reason}.`, {
    parameter: 'pattern',
  });
}

function parseSegment(pattern: string, segment: string): SegmentPattern {
  if (segment === '**') return { kind: 'globstar' };
  if (!segment.includes('*')) {
    const problem = segmentProblem(segment);
    if (problem) throw invalid(pattern, problem);
    return { kind: 'literal', text: segment };
  }
  if (segment.includes('**')) throw invalid(pattern, "'**' must be a whole segment");
  const pieces = segment.split('*');
  for (const piece of pieces) {
    const problem = piece === '' ? undefined : segmentProblem(piece);
    if (problem) throw invalid(pattern, problem);
  }
  return { kind: 'glob', pieces, minLength: pieces.reduce((n, p) => n + p.length, 0) };
}

/** Whether one key segment matches one segment pattern (greedy leftmost pieces: correct for `*`-only globs). */
function matchSegment(pattern: SegmentPattern, segment: string): boolean {
  if (pattern.kind === 'literal') return pattern.text === segment;
  if (pattern.kind === 'globstar') return true;
  const { pieces } = pattern;
  if (segment.length < pattern.minLength) return false;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!segment.startsWith(first) || !segment.endsWith(last)) return false;
  let pos = first.length;
  const end = segment.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const at = segment.indexOf(piece, pos);
    if (at < 0 || at + piece.length > end) return false;
    pos = at + piece.length;
  }
  return pos <= end;
}

/** A run of segment patterns between two `**`, with what finds it quickly in a key's segments. */
interface Group {
  segments: SegmentPattern[];
  /** Indexes into `segments`, literal ones first: a cheap mismatch is found before any glob is tried. */
  order: number[];
  /** For a group of literal segments only: the KMP failure table, so finding it is linear. */
  failure?: number[];
}

function compileGroup(segments: SegmentPattern[]): Group {
  const indexes = segments.map((_, i) => i);
  const order = [
    ...indexes.filter((i) => segments[i]!.kind === 'literal'),
    ...indexes.filter((i) => segments[i]!.kind !== 'literal'),
  ];
  if (!segments.every((s) => s.kind === 'literal')) return { segments, order };
  const texts = segments.map((s) => (s as { text: string }).text);
  const failure = new Array<number>(texts.length).fill(0);
  for (let i = 1, k = 0; i < texts.length; i++) {
    while (k > 0 && texts[i] !== texts[k]) k = failure[k - 1]!;
    if (texts[i] === texts[k]) k++;
    failure[i] = k;
  }
  return { segments, order, failure };
}

function matchGroupAt(group: Group, keySegments: string[], at: number): boolean {
  for (const i of group.order) if (!matchSegment(group.segments[i]!, keySegments[at + i]!)) return false;
  return true;
}

/** The leftmost place at or after `from` where the group matches and ends by `end`, or -1. */
function findGroup(group: Group, keySegments: string[], from: number, end: number): number {
  const m = group.segments.length;
  if (m === 0) return from <= end ? from : -1;
  const { failure } = group;
  if (!failure) {
    for (let at = from; at + m <= end; at++) if (matchGroupAt(group, keySegments, at)) return at;
    return -1;
  }
  // Knuth-Morris-Pratt over segments: each key segment is compared a bounded number of times.
  const texts = group.segments as { kind: 'literal'; text: string }[];
  for (let i = from, k = 0; i < end; i++) {
    while (k > 0 && keySegments[i] !== texts[k]!.text) k = failure[k - 1]!;
    if (keySegments[i] === texts[k]!.text) k++;
    if (k === m) return i - m + 1;
  }
  return -1;
}

/**
 * Matches key segments against `G0 ** G1 ** ... ** Gk`: G0 as prefix, Gk as suffix, each middle group at
 * its leftmost place after the previous one. Leftmost placement is always safe because `**` absorbs any gap.
 */
function matchGroups(groups: Group[], keySegments: string[]): boolean {
  const n = keySegments.length;
  const head = groups[0]!;
  if (groups.length === 1) return n === head.segments.length && matchGroupAt(head, keySegments, 0);
  const tail = groups[groups.length - 1]!;
  if (head.segments.length + tail.segments.length > n) return false;
  if (!matchGroupAt(head, keySegments, 0)) return false;
  if (!matchGroupAt(tail, keySegments, n - tail.segments.length)) return false;
  let pos = head.segments.length;
  const end = n - tail.segments.length;
  for (let g = 1; g < groups.length - 1; g++) {
    const found = findGroup(groups[g]!, keySegments, pos, end);
    if (found < 0) return false;
    pos = found + groups[g]!.segments.length;
  }
  return true;
}

function buildMatcher(segments: SegmentPattern[], source: string): (key: string) => boolean {
  const globstars = segments.filter((s) => s.kind === 'globstar').length;
  const last = segments[segments.length - 1]!;
  // Fast paths for the common shapes: an exact key, and `<literal folder>/**`.
  if (globstars === 0 && segments.every((s) => s.kind === 'literal')) return (key) => key === source;
  if (
    globstars === 1 &&
    last.kind === 'globstar' &&
    segments.length > 1 &&
    segments.slice(0, -1).every((s) => s.kind === 'literal')
  ) {
    const base = source.slice(0, -3);
    const folder = `${base}/`;
    return (key) => key.startsWith(folder) || key === base;
  }
  const runs: SegmentPattern[][] = [[]];
  for (const segment of segments) {
    if (segment.kind === 'globstar') runs.push([]);
    else runs[runs.length - 1]!.push(segment);
  }
  const groups = runs.map(compileGroup);
  return (key) => matchGroups(groups, key.split('/'));
}

/** Parses and checks a pattern (KEY_INVALID when it breaks the key rules) and compiles its matcher. */
export function compileKeyPattern(raw: unknown): KeyPattern {
  if (typeof raw !== 'string') throw invalid(String(raw), 'a pattern is a string');
  const source = raw.startsWith('/') ? raw.slice(1) : raw;
  if (source.length === 0) throw invalid(raw, 'the pattern is empty');
  if (source.length > MAX_KEY_LENGTH) throw invalid(raw, `longer than ${MAX_KEY_LENGTH} characters`);
  const segments = source.split('/').map((segment) => parseSegment(raw, segment));
  const first = segments[0]!;
  if (first.kind === 'literal' && !isPropertyRoot(first.text)) {
    throw invalid(raw, `it must start with one of ${PROPERTY_ROOTS.join(', ')} or a wildcard`);
  }
  const star = source.indexOf('*');
  return {
    source,
    segments,
    hasWildcard: star >= 0,
    literalPrefix: star >= 0 ? source.slice(0, star) : source,
    matches: buildMatcher(segments, source),
  };
}

/** True when `key` matches the wildcard `pattern`. Compile once with `compileKeyPattern` when matching many keys. */
export function matchesKeyPattern(key: string, pattern: string): boolean {
  return compileKeyPattern(pattern).matches(key.startsWith('/') ? key.slice(1) : key);
}

/** The text of the pattern before its first wildcard (`global/app/*` -> `global/app/`). */
export function literalPrefixOf(pattern: string): string {
  const source = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  const star = source.indexOf('*');
  return star >= 0 ? source.slice(0, star) : source;
}
