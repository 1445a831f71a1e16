/**
 * One row of an object's list: its cells and actions, positioned by the virtualizer. Memoized, so a row whose
 * instance, columns and place are unchanged is not drawn again while the list scrolls.
 */
import { memo } from 'react';
import type { ListColumn } from '../forms/form-schema';
import styles from './lists.module.css';
import type { InstanceRow } from './useInstancePages';

/** As `Date.toLocaleString()`, with one formatter for all cells (a new one per call is slow). */
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

export function displayCell(value: unknown, column: ListColumn): string {
  if (value === null || value === undefined) return '';
  if (column.format === 'date-time' && typeof value === 'string') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : DATE_TIME.format(date);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export interface InstanceListRowProps {
  index: number;
  /** The row's top in pixels. */
  start: number;
  /** Undefined while its page is being fetched. */
  row: InstanceRow | undefined;
  columns: readonly ListColumn[];
  onOpen(key: string): void;
  onDelete(row: InstanceRow): void;
}

export const InstanceListRow = memo(function InstanceListRow(props: InstanceListRowProps) {
  const { index, start, row, columns, onOpen, onDelete } = props;
  const value = (row?.value ?? {}) as Record<string, unknown>;
  return (
    <div
      role="row"
      aria-rowindex={index + 3}
      className={styles.row}
      style={{ transform: `translateY(${start}px)` }}
    >
      {columns.map((c) => (
        <div role="cell" key={c.field} className={`${styles.column} ${styles.cell}`}>
          {row ? displayCell(value[c.field], c) : '…'}
        </div>
      ))}
      {/*
       * The buttons stay mounted while the row's page is fetched (hidden): a jump to rows not fetched yet
       * changes their labels instead of removing two buttons a row and building them again a moment later.
       */}
      <div
        role="cell"
        className={`${styles.actionsColumn} ${styles.actions} ${row ? '' : styles.actionsPending}`}
      >
        <button type="button" onClick={() => row && onOpen(row.key)} aria-label={row && `Open ${row.key}`}>
          Open
        </button>
        <button type="button" onClick={() => row && onDelete(row)} aria-label={row && `Delete ${row.key}`}>
          Delete
        </button>
      </div>
    </div>
  );
});
