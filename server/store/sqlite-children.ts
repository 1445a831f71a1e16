/**
 * The next level of the property tree below a folder (for tree browsing), found with a skip scan: one index
 * seek per child, so a folder with a million descendants in a few sub-folders costs a few seeks.
 */
import type { SqliteDatabase } from '../db';
import { prefixUpperBound, type KeyScope } from '../../shared/property';

const LIVE = '(expires_at IS NULL OR expires_at > ?)';

interface ChildStatements {
  seek: { get(after: string, before: string, now: number): string | undefined };
  seekOpen: { get(after: string, now: number): string | undefined };
  exact: { get(key: string, now: number): string | undefined };
}

const cache = new WeakMap<SqliteDatabase, ChildStatements>();

function statementsFor(db: SqliteDatabase): ChildStatements {
  let s = cache.get(db);
  if (!s) {
    s = {
      seek: db
        .prepare<[string, string, number], string>(
          `SELECT key FROM property WHERE key > ? AND key < ? AND ${LIVE} ORDER BY key LIMIT 1`,
        )
        .pluck(),
      seekOpen: db
        .prepare<[string, number], string>(
          `SELECT key FROM property WHERE key > ? AND ${LIVE} ORDER BY key LIMIT 1`,
        )
        .pluck(),
      exact: db
        .prepare<[string, number], string>(`SELECT key FROM property WHERE key = ? AND ${LIVE}`)
        .pluck(),
    };
    cache.set(db, s);
  }
  return s;
}

/** The first live key strictly inside `prefix` after `after`, if any. */
function seekInside(s: ChildStatements, prefix: string, after: string, now: number): string | undefined {
  const upper = prefixUpperBound(prefix);
  return upper === undefined ? s.seekOpen.get(after, now) : s.seek.get(after, upper, now);
}

function skipScan(s: ChildStatements, base: string | null, now: number): string[] {
  const prefix = base === null ? '' : `${base}/`;
  const found = new Set<string>();
  let cursor = prefix;
  for (;;) {
    const key = seekInside(s, prefix, cursor, now);
    if (key === undefined) break;
    const rest = key.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      found.add(key);
      cursor = key;
    } else {
      const child = prefix + rest.slice(0, slash);
      found.add(`${child}/`);
      // Past every `child/...` key: key characters are all below 0x7f.
      cursor = `${child}/\x7f`;
    }
  }
  return [...found].sort();
}

/**
 * Children of `base` (a folder key, or null for the top level) visible within `scope`: property keys as
 * they are, sub-folders with a trailing `/`, sorted. Above the reader's folders only the path down to
 * those folders shows, and only when something live is inside them.
 */
export function childrenOf(db: SqliteDatabase, base: string | null, scope: KeyScope, now: number): string[] {
  const s = statementsFor(db);
  if (scope === 'all' || (base !== null && scope.some((f) => base === f || base.startsWith(`${f}/`)))) {
    return skipScan(s, base, now);
  }
  const prefix = base === null ? '' : `${base}/`;
  const found = new Set<string>();
  for (const folder of scope) {
    if (!folder.startsWith(prefix) || folder === prefix) continue;
    const rest = folder.slice(prefix.length);
    const slash = rest.indexOf('/');
    const hasExact = s.exact.get(folder, now) !== undefined;
    const hasInside = seekInside(s, `${folder}/`, `${folder}/`, now) !== undefined;
    if (slash < 0) {
      if (hasExact) found.add(folder);
      if (hasInside) found.add(`${folder}/`);
    } else if (hasExact || hasInside) {
      found.add(`${prefix}${rest.slice(0, slash)}/`);
    }
  }
  return [...found].sort();
}
