import { describe, expect, it } from 'vitest';
import { toEntries } from '../api/property-paths';
import type { TreeEntry } from '../api/property-types';
import { rowKey, treeRows } from './tree-rows';

const listing = (children: string[], more = false) => ({ entries: toEntries(children), more });
const loaded: Record<string, { entries: TreeEntry[]; more: boolean }> = {
  '': listing(['global/', 'user/']),
  global: listing(['global/app/', 'global/readme'], true),
  'global/app': listing([]),
};

describe('treeRows', () => {
  it('shows only the top level when nothing is expanded', () => {
    expect(treeRows((f) => loaded[f], new Set()).map(rowKey)).toEqual(['d:global', 'd:user']);
  });

  it('nests expanded folders, marks loading and empty ones', () => {
    const rows = treeRows((f) => loaded[f], new Set(['global', 'global/app', 'user']));
    expect(rows.map((r) => [rowKey(r), r.depth])).toEqual([
      ['d:global', 0],
      ['d:global/app', 1],
      ['empty:global/app', 2],
      ['p:global/readme', 1],
      ['more:global', 1],
      ['d:user', 0],
      ['loading:user', 1],
    ]);
  });

  it('ignores expanded folders whose parent is closed', () => {
    expect(treeRows((f) => loaded[f], new Set(['global/app'])).map(rowKey)).toEqual(['d:global', 'd:user']);
    expect(treeRows((f) => loaded[f], new Set(['global']))[3]).toEqual({
      kind: 'more',
      folder: 'global',
      depth: 1,
      shown: 2,
    });
  });
});
