/**
 * The active row of the property tree and its keyboard: the tree is one tab stop (aria-activedescendant), arrow
 * keys move and open, Enter selects, typing jumps to a name. The active row is scrolled into the window, so
 * it is always rendered (the tree draws only the rows in view).
 */
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import type { TreeEntry } from '../api/property-types';
import { treeKey, typeAheadMatch } from './tree-keys';
import { rowKey, type TreeRow } from './tree-rows';

/** Milliseconds between two typed letters that still extend the same type-ahead search. */
const TYPE_AHEAD_PAUSE = 600;

interface TreeKeyboardOptions {
  rows: readonly TreeRow[];
  selected: TreeEntry | null;
  onSelect(entry: TreeEntry): void;
  onToggle(path: string): void;
  /** Brings row `index` into view. */
  scrollTo(index: number): void;
}

export function useTreeKeyboard({ rows, selected, onSelect, onToggle, scrollTo }: TreeKeyboardOptions) {
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const typed = useRef({ text: '', at: 0 });
  const selectedKey = selected ? rowKey({ kind: 'entry', entry: selected, depth: 0, expanded: false }) : null;
  const find = (key: string | null) => (key === null ? -1 : rows.findIndex((row) => rowKey(row) === key));
  // The active row, else the selected one, else the first.
  let active = find(activeKey);
  if (active < 0) active = find(selectedKey);
  if (active < 0 && rows.length > 0 && rows[0]!.kind === 'entry') active = 0;

  const activate = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      setActiveKey(rowKey(row));
      scrollTo(index);
    },
    [rows, scrollTo],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const answer = treeKey(rows, active, event.key);
    if (answer) {
      event.preventDefault();
      if (answer.active !== undefined) activate(answer.active);
      if (answer.select) onSelect(answer.select);
      if (answer.toggle) onToggle(answer.toggle);
      return;
    }
    if (event.key.length !== 1 || event.key === ' ') return;
    event.preventDefault();
    const now = event.timeStamp;
    const text = now - typed.current.at < TYPE_AHEAD_PAUSE ? typed.current.text + event.key : event.key;
    typed.current = { text, at: now };
    const found = typeAheadMatch(rows, Math.max(active, 0) - (text.length > 1 ? 1 : 0), text);
    if (found !== undefined) activate(found);
  };

  return { active, onKeyDown, activate };
}
