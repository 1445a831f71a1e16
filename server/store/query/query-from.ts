/**
 * The `from` of a `property.query` (key patterns, each with an alias) and what each becomes in SQL: a derived
 * table of the live properties matching the pattern, of the type asked, inside the folders the caller may
 * read and outside the apps whose rules deny it, all as bound conditions, so nothing is filtered after paging.
 */
import {
  compileKeyPattern,
  prefixUpperBound,
  type KeyPattern,
  type KeyScope,
  type SegmentPattern,
} from '../../../shared/property';
import { refused } from './query-translate';
import type { SqlBuilder } from './query-sql';

export interface FromPattern {
  pattern: KeyPattern;
  alias: string;
}

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const MAX_PATTERNS = 4;

/** Parses `global/app/a/** as a, global/app/b/* as b` (one pattern may go without an alias). */
export function parseFrom(text: string): FromPattern[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw refused('from names no key pattern.', 'from');
  if (parts.length > MAX_PATTERNS) throw refused(`from joins at most ${MAX_PATTERNS} patterns.`, 'from');
  const out = parts.map((part) => {
    const match = /^(\S+)(?:\s+as\s+(\S+))?$/i.exec(part);
    if (!match) throw refused(`'${part.slice(0, 80)}' is not 'pattern' or 'pattern as name'.`, 'from');
    const alias = match[2] ?? (parts.length === 1 ? 'p' : undefined);
    if (!alias) throw refused('Each of several patterns needs a name: pattern as name.', 'from');
    if (!ALIAS.test(alias)) throw refused(`'${alias.slice(0, 80)}' is not a plain name.`, 'from');
    return { pattern: compileKeyPattern(match[1]), alias };
  });
  if (new Set(out.map((f) => f.alias)).size !== out.length)
    throw refused('Each pattern needs its own name.', 'from');
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

function escapeGlob(text: string): string {
  return text.replace(/[[*?]/g, (c) => `[${c}]`);
}

function segmentText(segment: SegmentPattern, escape: (t: string) => string, star: string): string {
  if (segment.kind === 'literal') return escape(segment.text);
  if (segment.kind === 'glob') return segment.pieces.map(escape).join(star);
  return '';
}

/** An anchored POSIX regular expression matching exactly the keys of the pattern (PostgreSQL's `~`). */
export function patternRegex(pattern: KeyPattern): string {
  const segs = pattern.segments;
  let re = '^';
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (seg.kind === 'globstar') {
      re += i === 0 ? (last ? '.*' : '(.*/)?') : last ? '(/.*)?' : '(/.*)?/';
      return;
    }
    if (i > 0 && segs[i - 1]!.kind !== 'globstar') re += '/';
    re += segmentText(seg, escapeRegex, '[^/]*');
  });
  return `${re}$`;
}

/**
 * SQLite has no regular expressions: a GLOB with the number of `/` fixed (exact for patterns without `**`
 * and for a literal folder with `/**`), else at least that many (a superset where `*` and `**` mix).
 */
function sqlitePatternCondition(pattern: KeyPattern, column: string, out: SqlBuilder): string {
  const segs = pattern.segments;
  const stars = segs.filter((s) => s.kind === 'globstar').length;
  const slashes = `(length(${column}) - length(replace(${column}, '/', '')))`;
  if (stars === 0) {
    const glob = segs.map((s) => segmentText(s, escapeGlob, '*')).join('/');
    return `(${column} GLOB ${out.bind(glob)} AND ${slashes} = ${out.bind(segs.length - 1)})`;
  }
  const glob = segs.map((s) => (s.kind === 'globstar' ? '*' : segmentText(s, escapeGlob, '*'))).join('/');
  const loose = glob
    .replace(/\/\*\//g, '*')
    .replace(/^\*\//, '*')
    .replace(/\/\*$/, '*');
  return `(${column} GLOB ${out.bind(loose)} AND ${slashes} >= ${out.bind(segs.length - 1 - stars)})`;
}

/** The prefix range of a folder (`f/` up to its upper bound) or of a pattern's literal prefix. */
function range(column: string, prefix: string, out: SqlBuilder): string {
  if (prefix === '') return 'TRUE';
  const upper = prefixUpperBound(prefix);
  return upper === undefined
    ? `${column} >= ${out.bind(prefix)}`
    : `(${column} >= ${out.bind(prefix)} AND ${column} < ${out.bind(upper)})`;
}

export interface AccessLimits {
  scope: KeyScope;
  /** App folders (`global/app/x`) whose rules deny the caller reading. */
  deniedFolders: readonly string[];
}

/** The derived table of one pattern. */
export function fromTable(
  from: FromPattern,
  access: AccessLimits,
  type: string | undefined,
  now: number,
  out: SqlBuilder,
): string {
  const conditions = [`(expires_at IS NULL OR expires_at > ${out.bind(now)})`];
  const pattern = from.pattern;
  const prefix = pattern.literalPrefix;
  const segs = pattern.segments;
  // `folder/**` is exactly the folder's range (and the folder itself): no per-row pattern test needed.
  const folderOnly =
    segs.length > 1 &&
    segs.at(-1)!.kind === 'globstar' &&
    segs.slice(0, -1).every((s) => s.kind === 'literal');
  if (!pattern.hasWildcard) {
    conditions.push(`key = ${out.bind(pattern.source)}`);
  } else if (folderOnly) {
    conditions.push(`(${range('key', prefix, out)} OR key = ${out.bind(prefix.slice(0, -1))})`);
  } else {
    conditions.push(range('key', prefix, out));
    conditions.push(
      out.dialect === 'postgres'
        ? `key ~ ${out.bind(patternRegex(pattern))}`
        : sqlitePatternCondition(pattern, 'key', out),
    );
  }
  if (type !== undefined) {
    conditions.push(
      `(type = ${out.bind(type)} OR substr(type, 1, ${out.bind(type.length + 1)}) = ${out.bind(`${type};`)})`,
    );
  }
  if (access.scope !== 'all') {
    const folders = access.scope.map((f) => range('key', `${f}/`, out));
    conditions.push(folders.length === 0 ? 'FALSE' : `(${folders.join(' OR ')})`);
  }
  for (const folder of access.deniedFolders) conditions.push(`NOT ${range('key', `${folder}/`, out)}`);
  return `(SELECT key, uuid, value, type, created, updated, ttl FROM property WHERE ${conditions.join(' AND ')}) AS ${out.name(from.alias)}`;
}
