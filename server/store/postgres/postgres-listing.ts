/**
 * Wildcard listings and tree levels on PostgreSQL: the shared `scanRanges` turn a pattern and scope into key
 * ranges, each read with an index range scan (paged when a limit can stop it early); tree levels use the
 * same skip scan as SQLite (`../sqlite/sqlite-children-page.ts`), one index seek per child, run inside
 * PostgreSQL as a recursive statement so that a page is one round trip.
 */
import {
  compileKeyPattern,
  prefixUpperBound,
  scanRanges,
  type ChildrenPage,
  type KeyScope,
  type PropertyQuery,
} from '../../../shared/property';
import { childrenFromProbes, foldersBelow, resumeAfter, seesWholeLevel } from '../property-tree-rules';
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

/** The child a key expression lies in (`childAt` of `../property-tree-rules.ts`), `$4` the prefix length. */
function childOf(key: string): string {
  const slash = `strpos(substr(${key}, $4 + 1), '/')`;
  return `CASE WHEN ${slash} = 0 THEN ${key} ELSE left(${key}, $4 + ${slash}) END`;
}

/**
 * The skip scan of a level as one statement: the first live key after `cursor` inside `prefix`, the child it
 * lies in, then one index seek past that child's whole content (`resumeAfter`) for the next, at most `count`
 * children. Each step reads one entry of the `property_key` index, so a page costs its own size whatever the
 * folders in it hold, and one round trip.
 */
export function levelScanStatement(
  prefix: string,
  cursor: string,
  count: number,
  now: number,
): { sql: string; params: unknown[] } {
  const upper = prefixUpperBound(prefix);
  const seekAfter = (from: string) =>
    `SELECT key FROM property WHERE key > ${from} AND ${pgLive(2)}${upper === undefined ? '' : ' AND key < $5'} ` +
    'ORDER BY key LIMIT 1';
  const resume = "CASE WHEN right(level.child, 1) = '/' THEN level.child || chr(127) ELSE level.child END";
  const sql = `WITH RECURSIVE level (child, n) AS (
      SELECT ${childOf('first.key')}, 1 FROM (${seekAfter('$1')}) AS first
      UNION ALL
      SELECT ${childOf('next.key')}, level.n + 1
      FROM level CROSS JOIN LATERAL (${seekAfter(resume)}) AS next
      WHERE level.n < $3
    ) SELECT child FROM level ORDER BY n`;
  const params = [cursor, now, count, prefix.length, ...(upper === undefined ? [] : [upper])];
  return { sql, params };
}

/**
 * Up to `limit` children of `base` (null: the top level) after the entry `after`, each passing `accept`,
 * read in batches of the level scan; `next` is the last entry given when another one follows.
 */
export async function childrenPageOf(
  db: Queryable,
  base: string | null,
  query: { after?: string; limit: number; accept?: (child: string) => boolean },
  now: number,
): Promise<ChildrenPage> {
  const prefix = base === null ? '' : `${base}/`;
  const { limit, accept = () => true } = query;
  const children: string[] = [];
  let cursor = query.after === undefined ? prefix : resumeAfter(query.after);
  for (;;) {
    // One more than the page needs, to know whether another entry follows.
    const batch = Math.min(PAGE_ROWS, limit - children.length + 1);
    const { sql, params } = levelScanStatement(prefix, cursor, batch, now);
    const found = (await rows<{ child: string }>(db, sql, params)).map((r) => r.child);
    for (const child of found) {
      cursor = resumeAfter(child);
      if (!accept(child)) continue;
      if (children.length === limit) return { children, next: children.at(-1) ?? null };
      children.push(child);
    }
    if (found.length < batch) return { children, next: null };
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
  if (scope === 'all' || seesWholeLevel(base, scope)) {
    return (await childrenPageOf(db, base, { limit: Infinity }, now)).children;
  }
  const exactSql = `SELECT key FROM property WHERE key = $1 AND ${pgLive(2)}`;
  const probes = [];
  for (const folder of foldersBelow(base, scope)) {
    const hasExact = (await first(db, exactSql, [folder, now])) !== undefined;
    const hasInside = (await seek(db, `${folder}/`, prefixUpperBound(`${folder}/`), now)) !== undefined;
    probes.push({ folder, hasExact, hasInside });
  }
  return childrenFromProbes(base, probes);
}
