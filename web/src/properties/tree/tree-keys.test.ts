import { describe, expect, it } from 'vitest';
import { toEntries } from '../api/property-paths';
import type { TreeEntry } from '../api/property-types';
import { treeKey, typeAheadMatch } from './tree-keys';
import { treeRows } from './tree-rows';

const listing = (children: string[]) => ({ entries: toEntries(children), more: false });
const loaded: Record<string, { entries: TreeEntry[]; more: boolean }> = {
  '': listing(['global/', 'user/']),
  global: listing(['global/app/', 'global/readme', 'global/rules']),
  'global/app': listing([]),
};
// 0 global (open), 1 app (open), 2 empty placeholder, 3 readme, 4 rules, 5 user (closed)
const rows = treeRows((f) => loaded[f], new Set(['global', 'global/app']));

describe('treeKey', () => {
  it('moves down and up over entries only, and stops at the ends', () => {
    expect(treeKey(rows, 1, 'ArrowDown')).toEqual({ active: 3 });
    expect(treeKey(rows, 3, 'ArrowUp')).toEqual({ active: 1 });
    expect(treeKey(rows, 5, 'ArrowDown')).toEqual({ active: 5 });
    expect(treeKey(rows, 0, 'ArrowUp')).toEqual({ active: 0 });
    expect(treeKey(rows, -1, 'ArrowDown')).toEqual({ active: 0 });
    expect(treeKey(rows, 3, 'Home')).toEqual({ active: 0 });
    expect(treeKey(rows, 0, 'End')).toEqual({ active: 5 });
  });

  it('opens a closed folder, enters an open one; closes an open one, else goes to the parent', () => {
    expect(treeKey(rows, 5, 'ArrowRight')).toEqual({ toggle: 'user' });
    expect(treeKey(rows, 0, 'ArrowRight')).toEqual({ active: 1 });
    expect(treeKey(rows, 1, 'ArrowRight')).toEqual({ active: 1 });
    expect(treeKey(rows, 3, 'ArrowRight')).toEqual({});
    expect(treeKey(rows, 1, 'ArrowLeft')).toEqual({ toggle: 'global/app' });
    expect(treeKey(rows, 4, 'ArrowLeft')).toEqual({ active: 0 });
    expect(treeKey(rows, 5, 'ArrowLeft')).toEqual({ active: 5 });
  });

  it('Enter selects; on a folder it also opens or closes it; other keys are not the tree’s', () => {
    expect(treeKey(rows, 3, 'Enter')).toEqual({ select: rows[3]!.kind === 'entry' && rows[3]!.entry });
    expect(treeKey(rows, 5, 'Enter')).toMatchObject({ toggle: 'user' });
    expect(treeKey(rows, 3, 'x')).toBeNull();
  });
});

describe('typeAheadMatch', () => {
  it('finds the next entry by the start of its name, wrapping, case-insensitive', () => {
    expect(typeAheadMatch(rows, 0, 'r')).toBe(3);
    expect(typeAheadMatch(rows, 3, 'r')).toBe(4);
    expect(typeAheadMatch(rows, 4, 'R')).toBe(3);
    expect(typeAheadMatch(rows, 3, 'ru')).toBe(4);
    expect(typeAheadMatch(rows, 0, 'zz')).toBeUndefined();
  });
});
