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
  gridTemplate: string;
  onOpen(key: string): void;
  onDelete(row: InstanceRow): void;
}

export const InstanceListRow = memo(function InstanceListRow(props: InstanceListRowProps) {
  const { index, start, row, columns, gridTemplate, onOpen, onDelete } = props;
  const value = (row?.value ?? {}) as Record<string, unknown>;
  return (
    <div
      role="row"
      aria-rowindex={index + 3}
      className={styles.row}
      style={{ transform: `translateY(${start}px)`, gridTemplateColumns: gridTemplate }}
    >
      {columns.map((c) => (
        <div role="cell" key={c.field} className={styles.cell}>
          {row ? displayCell(value[c.field], c) : '…'}
        </div>
      ))}
      <div role="cell" className={styles.actions}>
        {row && (
          <>
            <button type="button" onClick={() => onOpen(row.key)} aria-label={`Open ${row.key}`}>
              Open
            </button>
            <button type="button" onClick={() => onDelete(row)} aria-label={`Delete ${row.key}`}>
              Delete
            </button>
          </>
        )}
      </div>
    </div>
  );
});
