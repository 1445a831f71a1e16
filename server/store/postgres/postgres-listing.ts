/**
 * Wildcard listings and tree levels on PostgreSQL: the shared `scanRanges` turn a pattern and scope into key
 * ranges, each read with an index range scan (paged when a limit can stop it early); tree levels use the
 * same skip scan as SQLite (`../sqlite-children-page.ts`): one index seek per child.
 */
import {
  compileKeyPattern,
  prefixUpperBound,
  scanRanges,
  type KeyScope,
  type PropertyQuery,
} from '../../../shared/property';
import {
  childAt,
  childrenFromProbes,
  foldersBelow,
  resumeAfter,
  seesWholeLevel,
} from '../property-tree-rules';
import { first, pgLive, rangeStatement, rows, type Queryable } from './postgres-rows';

/** Rows read per round trip when a limit may stop the scan early. */
const PAGE_ROWS = 500;

/**
 * Live rows (the given columns, which include `key`) matching the query, in key order; `lock` locks them
 * (`FOR UPDATE`, inside a write transaction) so that what a delete by pattern checked is what it deletes.
 */
export async function scanQuery<T extends { key: string }>(
  db: Queryable,
  query: PropertyQuery,
  now: number,
  columns: string,
  lock = false,
): Promise<T[]> {
  const locking = lock ? ' FOR UPDATE' : '';
  const pattern = typeof query.pattern === 'string' ? compileKeyPattern(query.pattern) : query.pattern;
  const filter = query.filter;
  const accepts = (key: string) => pattern.matches(key) && (filter === undefined || filter(key));
  const limit = query.limit ?? Infinity;
  const out: T[] = [];
  for (const range of scanRanges(pattern, query.scope ?? 'all')) {
    if (out.length >= limit) break;
    if ('exact' in range) {
      const sql = `SELECT ${columns} FROM property WHERE key = $1 AND ${pgLive(2)}${locking}`;
      const row = await first<T>(db, sql, [range.exact, now]);
      if (row && accepts(row.key)) out.push(row);
      continue;
    }
    const page = limit === Infinity ? undefined : PAGE_ROWS;
    let cursor = { from: range.from, inclusive: true, to: range.to };
    for (;;) {
      const { sql, params } = rangeStatement(columns, cursor, now, page);
      const got = await rows<T>(db, sql + locking, params);
      for (const row of got) {
        if (accepts(row.key)) out.push(row);
        if (out.length >= limit) break;
      }
      if (page === undefined || got.length < page || out.length >= limit) break;
      cursor = { from: got.at(-1)!.key, inclusive: false, to: range.to };
    }
  }
  return out;
}

/** The first live key after `after` and before `before` (no bound when undefined). */
async function seek(db: Queryable, after: string, before: string | undefined, now: number) {
  const bound = before === undefined ? '' : ' AND key < $3';
  const params = before === undefined ? [after, now] : [after, now, before];
  const sql = `SELECT key FROM property WHERE key > $1 AND ${pgLive(2)}${bound} ORDER BY key LIMIT 1`;
  return (await first<{ key: string }>(db, sql, params))?.key;
}

/** Every child of `base` (null: the top level), keys as they are, sub-folders ending in `/`, sorted. */
async function allChildren(db: Queryable, base: string | null, now: number): Promise<string[]> {
  const prefix = base === null ? '' : `${base}/`;
  const upper = prefixUpperBound(prefix);
  const children: string[] = [];
  let cursor = prefix;
  for (;;) {
    const key = await seek(db, cursor, upper, now);
    if (key === undefined) return children;
    const child = childAt(key, prefix);
    children.push(child);
    cursor = resumeAfter(child);
  }
}

/**
 * Children of `base` visible within `scope`; above the reader's folders only the path down to them shows,
 * and only when something live is inside them (`../property-tree-rules.ts`).
 */
export async function childrenOf(
  db: Queryable,
  base: string | null,
  scope: KeyScope,
  now: number,
): Promise<string[]> {
  if (scope === 'all' || seesWholeLevel(base, scope)) return allChildren(db, base, now);
  const exactSql = `SELECT key FROM property WHERE key = $1 AND ${pgLive(2)}`;
  const probes = [];
  for (const folder of foldersBelow(base, scope)) {
    const hasExact = (await first(db, exactSql, [folder, now])) !== undefined;
    const hasInside = (await seek(db, `${folder}/`, prefixUpperBound(`${folder}/`), now)) !== undefined;
    probes.push({ folder, hasExact, hasInside });
  }
  return childrenFromProbes(base, probes);
}
