/**
 * Turns a pattern plus the folders a caller may read into ordered, disjoint key ranges, so a store answers a
 * wildcard listing with index range scans over only what the caller may see, never a scan of every key.
 */
import type { KeyPattern } from './key-pattern';

/** Folders a reader may see (`global`, `user/<uuid>`, ...: the folder key and everything below), or all. */
export type KeyScope = 'all' | readonly string[];

/** One key (`exact`), or every key `k` with `from <= k < to` (`to` undefined: no upper bound). */
export type KeyRange = { exact: string } | { from: string; to?: string };

/** The smallest string greater than every string starting with `prefix` (for ASCII keys). */
export function prefixUpperBound(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function prefixRange(prefix: string): KeyRange {
  const to = prefixUpperBound(prefix);
  return to === undefined ? { from: prefix } : { from: prefix, to };
}

/** The candidate ranges of a pattern alone: its literal prefix, plus the folder itself for `folder/**`. */
function patternRanges(pattern: KeyPattern): { prefixes: string[]; exacts: string[] } {
  if (!pattern.hasWildcard) return { prefixes: [], exacts: [pattern.source] };
  const prefix = pattern.literalPrefix;
  const exacts: string[] = [];
  // `a/**` (and `a/**/**`) also matches `a` itself, which does not start with `a/`.
  if (prefix.endsWith('/')) {
    const before = prefix.slice(0, -1).split('/').length;
    if (pattern.segments.slice(before).every((s) => s.kind === 'globstar')) exacts.push(prefix.slice(0, -1));
  }
  return { prefixes: [prefix], exacts };
}

function inFolder(key: string, folder: string): boolean {
  return key === folder || key.startsWith(`${folder}/`);
}

function startOf(range: KeyRange): string {
  return 'exact' in range ? range.exact : range.from;
}

/**
 * The ranges to scan for `pattern` within `scope`, sorted and disjoint, so results read range after range
 * come out in key order. Every key the pattern matches inside the scope lies in one of them; a few
 * non-matching keys may too, so callers still test each key with `pattern.matches`.
 */
export function scanRanges(pattern: KeyPattern, scope: KeyScope): KeyRange[] {
  const { prefixes, exacts } = patternRanges(pattern);
  if (scope === 'all') {
    return [...exacts.map((exact) => ({ exact })), ...prefixes.map(prefixRange)].sort((a, b) =>
      startOf(a) < startOf(b) ? -1 : 1,
    );
  }
  const ranges: KeyRange[] = [];
  // A folder inside another one adds nothing and would read its keys twice.
  const folders = scope.filter((f) => !scope.some((other) => other !== f && f.startsWith(`${other}/`)));
  for (const folder of folders) {
    for (const exact of exacts) if (inFolder(exact, folder)) ranges.push({ exact });
    for (const prefix of prefixes) {
      if (prefix.startsWith(`${folder}/`)) ranges.push(prefixRange(prefix));
      else if (folder.startsWith(prefix)) ranges.push({ exact: folder }, prefixRange(`${folder}/`));
    }
  }
  const seen = new Set<string>();
  return ranges
    .filter((r) => {
      const id = 'exact' in r ? `=${r.exact}` : `>${r.from}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => (startOf(a) < startOf(b) ? -1 : 1));
}

/** True when `key` lies inside one of the scope's folders. */
export function isInScope(key: string, scope: KeyScope): boolean {
  if (scope === 'all') return true;
  for (const folder of scope) if (inFolder(key, folder)) return true;
  return false;
}
