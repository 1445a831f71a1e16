/**
 * The next level of the property tree below a folder (for tree browsing), found with the skip scan of
 * `sqlite-children-page.ts`: one index seek per child, so a folder with a million descendants in a few
 * sub-folders costs a few seeks. Above the reader's own folders, only the paths down to them show.
 */
import type { SqliteDatabase } from '../../db';
import { prefixUpperBound, type KeyScope } from '../../../shared/property';
import { childrenPageOf, seekStatements, type SeekStatements } from './sqlite-children-page';
import { LIVE } from './sqlite-rows';
import { childrenFromProbes, foldersBelow, seesWholeLevel } from '../property-tree-rules';

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
  if (scope === 'all' || seesWholeLevel(base, scope)) {
    return childrenPageOf(db, base, undefined, Infinity, () => true, now).children;
  }
  const s = seekStatements(db);
  const exact = exactStatement(db);
  const probes = foldersBelow(base, scope).map((folder) => ({
    folder,
    hasExact: exact.get(folder, now) !== undefined,
    hasInside: seekInside(s, `${folder}/`, `${folder}/`, now) !== undefined,
  }));
  return childrenFromProbes(base, probes);
}
