/**
 * One page of a tree level on SQLite: the skip scan of `sqlite-children.ts` started after a cursor and
 * stopped after `limit` entries, so a folder with 100,000 properties answers its first page in microseconds.
 */
import type { SqliteDatabase } from '../../db';
import { prefixUpperBound, type ChildrenPage } from '../../../shared/property';
import { childAt, resumeAfter } from '../property-tree-rules';
import { LIVE } from './sqlite-rows';

export interface SeekStatements {
  seek: { get(after: string, before: string, now: number): string | undefined };
  seekOpen: { get(after: string, now: number): string | undefined };
}

const cache = new WeakMap<SqliteDatabase, SeekStatements>();

/** The two index seeks of the skip scan, prepared once per database. */
export function seekStatements(db: SqliteDatabase): SeekStatements {
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
    };
    cache.set(db, s);
  }
  return s;
}

/**
 * Up to `limit` children of `base` (null: the top level) after the entry `after`, each passing `accept`.
 * Discovery order is sorted order: a folder `a/x/` sorts exactly where its keys `a/x/...` do.
 */
export function childrenPageOf(
  db: SqliteDatabase,
  base: string | null,
  after: string | undefined,
  limit: number,
  accept: (child: string) => boolean,
  now: number,
): ChildrenPage {
  const s = seekStatements(db);
  const prefix = base === null ? '' : `${base}/`;
  const upper = prefixUpperBound(prefix);
  const children: string[] = [];
  let cursor = after === undefined ? prefix : resumeAfter(after);
  for (;;) {
    const key = upper === undefined ? s.seekOpen.get(cursor, now) : s.seek.get(cursor, upper, now);
    if (key === undefined) return { children, next: null };
    const child = childAt(key, prefix);
    cursor = resumeAfter(child);
    if (!accept(child)) continue;
    if (children.length === limit) return { children, next: children.at(-1) ?? null };
    children.push(child);
  }
}
