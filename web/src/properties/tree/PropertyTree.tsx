/** The lazily loaded, windowed property tree: a level is fetched when its folder opens, only visible rows render. */
import { useCallback, useId, useMemo } from 'react';
import { errorText } from '../api/error-text';
import type { TreeEntry } from '../api/property-types';
import { rowKey, treeRows } from './tree-rows';
import { ROW_HEIGHT, TreeRowView } from './TreeRowView';
import { useTreeChildren } from './useTreeChildren';
import { useTreeKeyboard } from './useTreeKeyboard';
import { useVirtualWindow } from './useVirtualWindow';
import styles from '../properties.module.css';

interface PropertyTreeProps {
  expanded: ReadonlySet<string>;
  selected: TreeEntry | null;
  onSelect(entry: TreeEntry): void;
  onToggle(path: string): void;
}

export function PropertyTree({ expanded, selected, onSelect, onToggle }: PropertyTreeProps) {
  const { lookup, error, showMore } = useTreeChildren(expanded);
  const rows = useMemo(() => treeRows(lookup, expanded), [lookup, expanded]);
  const { attach, onScroll, start, end, totalHeight, scrollTo } = useVirtualWindow(rows.length, ROW_HEIGHT);
  const keyboard = useTreeKeyboard({ rows, selected, onSelect, onToggle, scrollTo });
  const idPrefix = useId();
  const rowId = useCallback((index: number) => `${idPrefix}row-${index}`, [idPrefix]);
  const activeInView = keyboard.active >= start && keyboard.active < end;
  const isSelected = (entry: TreeEntry) =>
    selected !== null && selected.path === entry.path && selected.folder === entry.folder;

  return (
    <div ref={attach} className={styles.scroller} onScroll={onScroll}>
      {error && (
        <p role="alert" className={styles.error}>
          {errorText(error)}
        </p>
      )}
      <div
        role="tree"
        aria-label="Properties"
        tabIndex={0}
        aria-activedescendant={activeInView ? rowId(keyboard.active) : undefined}
        onKeyDown={keyboard.onKeyDown}
        className={styles.canvas}
        style={{ height: totalHeight }}
      >
        {rows.slice(start, end).map((row, i) => (
          <TreeRowView
            key={rowKey(row)}
            id={rowId(start + i)}
            active={start + i === keyboard.active}
            onActivate={() => keyboard.activate(start + i)}
            row={row}
            top={(start + i) * ROW_HEIGHT}
            selected={row.kind === 'entry' && isSelected(row.entry)}
            onSelect={onSelect}
            onToggle={onToggle}
            onShowMore={showMore}
          />
        ))}
      </div>
    </div>
  );
}
