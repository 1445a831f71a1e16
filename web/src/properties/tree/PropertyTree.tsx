/** The lazily loaded, windowed property tree: a level is fetched when its folder opens, only visible rows render. */
import { useMemo } from 'react';
import { errorText } from '../api/error-text';
import type { TreeEntry } from '../api/property-types';
import { rowKey, treeRows } from './tree-rows';
import { ROW_HEIGHT, TreeRowView } from './TreeRowView';
import { useTreeChildren } from './useTreeChildren';
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
  const { attach, onScroll, start, end, totalHeight } = useVirtualWindow(rows.length, ROW_HEIGHT);
  const isSelected = (entry: TreeEntry) =>
    selected !== null && selected.path === entry.path && selected.folder === entry.folder;

  return (
    <div ref={attach} className={styles.scroller} onScroll={onScroll}>
      {error && (
        <p role="alert" className={styles.error}>
          {errorText(error)}
        </p>
      )}
      <div role="tree" aria-label="Properties" className={styles.canvas} style={{ height: totalHeight }}>
        {rows.slice(start, end).map((row, i) => (
          <TreeRowView
            key={rowKey(row)}
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
