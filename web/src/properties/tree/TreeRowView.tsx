/** One row of the tree: indentation, a disclosure arrow for folders, the name. */
import type { TreeEntry } from '../api/property-types';
import type { TreeRow } from './tree-rows';
import styles from '../properties.module.css';

export const ROW_HEIGHT = 26;

interface TreeRowViewProps {
  id: string;
  /** The row the keyboard is on (aria-activedescendant of the tree). */
  active: boolean;
  onActivate(): void;
  row: TreeRow;
  top: number;
  selected: boolean;
  onSelect(entry: TreeEntry): void;
  onToggle(path: string): void;
  onShowMore(folder: string, shown: number): void;
}

export function TreeRowView(props: TreeRowViewProps) {
  const { id, active, onActivate, row, top, selected, onSelect, onToggle, onShowMore } = props;
  const style = { top, height: ROW_HEIGHT, paddingLeft: 8 + row.depth * 16 };
  if (row.kind === 'more') {
    return (
      <div className={styles.row} style={style}>
        <button
          type="button"
          tabIndex={-1}
          className={styles.link}
          onClick={() => onShowMore(row.folder, row.shown)}
        >
          Show more ({row.shown} shown)
        </button>
      </div>
    );
  }
  if (row.kind !== 'entry') {
    return (
      <div className={`${styles.row} ${styles.placeholder}`} style={style}>
        {row.kind === 'loading' ? 'Loading…' : 'Empty'}
      </div>
    );
  }
  const { entry } = row;
  return (
    <div
      id={id}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={selected}
      aria-expanded={entry.folder ? row.expanded : undefined}
      aria-label={entry.name}
      title={entry.path}
      data-path={entry.path}
      className={[styles.row, selected && styles.selected, active && styles.active].filter(Boolean).join(' ')}
      style={style}
      onClick={() => {
        onActivate();
        onSelect(entry);
        if (entry.folder) onToggle(entry.path);
      }}
    >
      <span className={styles.twisty} aria-hidden>
        {entry.folder ? (row.expanded ? '▾' : '▸') : ''}
      </span>
      <span className={entry.folder ? styles.folderIcon : styles.fileIcon} aria-hidden />
      <span className={styles.rowName}>{entry.name}</span>
    </div>
  );
}
