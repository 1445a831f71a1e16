/** Flattens the loaded part of the tree into the rows on screen: only expanded folders contribute their children. */
import type { TreeEntry } from '../api/property-types';

export type TreeRow =
  | { kind: 'entry'; entry: TreeEntry; depth: number; expanded: boolean }
  | { kind: 'loading'; folder: string; depth: number }
  | { kind: 'empty'; folder: string; depth: number }
  | { kind: 'more'; folder: string; depth: number; shown: number };

/** The loaded part of a folder: its first entries, and whether more follow. */
export interface FolderListing {
  entries: TreeEntry[];
  more: boolean;
}

/** A folder's listing once loaded, undefined while loading. Key '' is the top level. */
export type ChildrenLookup = (folder: string) => FolderListing | undefined;

export function rowKey(row: TreeRow): string {
  return row.kind === 'entry'
    ? `${row.entry.folder ? 'd' : 'p'}:${row.entry.path}`
    : `${row.kind}:${row.folder}`;
}

/** The visible rows, depth first in listing order; cost is proportional to what is expanded, not to the store. */
export function treeRows(children: ChildrenLookup, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (folder: string, depth: number) => {
    const listing = children(folder);
    if (listing === undefined) {
      rows.push({ kind: 'loading', folder, depth });
      return;
    }
    const { entries } = listing;
    if (entries.length === 0 && depth > 0) rows.push({ kind: 'empty', folder, depth });
    for (const entry of entries) {
      const open = entry.folder && expanded.has(entry.path);
      rows.push({ kind: 'entry', entry, depth, expanded: open });
      if (open) visit(entry.path, depth + 1);
    }
    if (listing.more) rows.push({ kind: 'more', folder, depth, shown: entries.length });
  };
  visit('', 0);
  return rows;
}
