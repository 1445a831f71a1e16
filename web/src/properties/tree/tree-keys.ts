/**
 * The keyboard of the property tree (the WAI-ARIA tree pattern): what a key does, given the rows on screen and
 * the active one. Pure: the view applies the answer (move the active row, open or close a folder, select).
 */
import type { TreeEntry } from '../api/property-types';
import type { TreeRow } from './tree-rows';

export interface TreeKeyAnswer {
  /** The row (index into the rows) that becomes active. */
  active?: number;
  /** A folder to open or close. */
  toggle?: string;
  /** An entry to select (what a click does). */
  select?: TreeEntry;
}

type EntryRow = Extract<TreeRow, { kind: 'entry' }>;

const isEntry = (row: TreeRow | undefined): row is EntryRow => row?.kind === 'entry';

function nextEntry(rows: readonly TreeRow[], from: number, step: 1 | -1): number | undefined {
  for (let i = from + step; i >= 0 && i < rows.length; i += step) if (isEntry(rows[i])) return i;
  return undefined;
}

function parentOf(rows: readonly TreeRow[], index: number): number | undefined {
  const depth = rows[index]!.depth;
  for (let i = index - 1; i >= 0; i -= 1) if (isEntry(rows[i]) && rows[i]!.depth < depth) return i;
  return undefined;
}

/** The next entry after `from` (wrapping) whose name starts with `typed`, case-insensitive. */
export function typeAheadMatch(rows: readonly TreeRow[], from: number, typed: string): number | undefined {
  const wanted = typed.toLowerCase();
  for (let n = 1; n <= rows.length; n += 1) {
    const i = (from + n) % rows.length;
    const row = rows[i];
    if (isEntry(row) && row.entry.name.toLowerCase().startsWith(wanted)) return i;
  }
  return undefined;
}

/** What `key` does on the active row `active` (-1 when none is); null: not a tree key. */
export function treeKey(rows: readonly TreeRow[], active: number, key: string): TreeKeyAnswer | null {
  const row = rows[active];
  switch (key) {
    case 'ArrowDown':
      return { active: nextEntry(rows, active, 1) ?? active };
    case 'ArrowUp':
      return { active: active < 0 ? nextEntry(rows, -1, 1) : (nextEntry(rows, active, -1) ?? active) };
    case 'Home':
      return { active: nextEntry(rows, -1, 1) };
    case 'End':
      return { active: nextEntry(rows, rows.length, -1) };
    case 'ArrowRight':
      if (!isEntry(row) || !row.entry.folder) return {};
      if (!row.expanded) return { toggle: row.entry.path };
      return { active: isEntry(rows[active + 1]) ? active + 1 : active };
    case 'ArrowLeft':
      if (!isEntry(row)) return {};
      if (row.entry.folder && row.expanded) return { toggle: row.entry.path };
      return { active: parentOf(rows, active) ?? active };
    case 'Enter':
    case ' ':
      if (!isEntry(row)) return {};
      return row.entry.folder ? { select: row.entry, toggle: row.entry.path } : { select: row.entry };
    default:
      return null;
  }
}
