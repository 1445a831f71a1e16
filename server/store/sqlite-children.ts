/**
 * The next level of the property tree below a folder (for tree browsing), found with the skip scan of
 * `sqlite-children-page.ts`: one index seek per child, so a folder with a million descendants in a few
 * sub-folders costs a few seeks. Above the reader's own folders, only the paths down to them show.
 */
import type { SqliteDatabase } from '../db';
import { prefixUpperBound, type KeyScope } from '../../shared/property';
import { LIVE, childrenPageOf, seekStatements, type SeekStatements } from './sqlite-children-page';

const exactStatements = new WeakMap<SqliteDatabase, { get(key: string, now: number): string | undefined }>();

function exactStatement(db: SqliteDatabase) {
  let exact = exactStatements.get(db);
  if (!exact) {
    exact = db
      .prepare<[string, number], string>(`SELECT key FROM property WHERE key = ? AND ${LIVE}`)
      .pluck();
    exactStatements.set(db, exact);
  }
  return exact;
}

/** The first live key strictly inside `prefix` after `after`, if any. */
function seekInside(s: SeekStatements, prefix: string, after: string, now: number): string | undefined {
  const upper = prefixUpperBound(prefix);
  return upper === undefined ? s.seekOpen.get(after, now) : s.seek.get(after, upper, now);
}

/**
 * Children of `base` (a folder key, or null for the top level) visible within `scope`: property keys as
 * they are, sub-folders with a trailing `/`, sorted. Above the reader's folders only the path down to
 * those folders shows, and only when something live is inside them.
 */
export function childrenOf(db: SqliteDatabase, base: string | null, scope: KeyScope, now: number): string[] {
  if (scope === 'all' || (base !== null && scope.some((f) => base === f || base.startsWith(`${f}/`)))) {
    return childrenPageOf(db, base, undefined, Infinity, () => true, now).children;
  }
  const s = seekStatements(db);
  const exact = exactStatement(db);
  const prefix = base === null ? '' : `${base}/`;
  const found = new Set<string>();
  for (const folder of scope) {
    if (!folder.startsWith(prefix) || folder === prefix) continue;
    const rest = folder.slice(prefix.length);
    const slash = rest.indexOf('/');
    const hasExact = exact.get(folder, now) !== undefined;
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
