/** The trace of the last run: one expandable row per executed step. */
import { useState } from 'react';
import { TraceRow } from './TraceRow';
import type { TraceEntry } from './run-types';
import { canStartAt } from './useRun';
import styles from './run.module.css';

/** Rows drawn at once: a long loop's trace stays quick to show. */
const PAGE = 200;

export interface TraceViewProps {
  trace: TraceEntry[];
  /** The steps a run can start at (outside every block). */
  topLevel: ReadonlySet<number>;
  onRunFrom(step: number): void;
  onInspect(position: number): void;
  running: boolean;
}

export function TraceView({ trace, topLevel, onRunFrom, onInspect, running }: TraceViewProps) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [shown, setShown] = useState(PAGE);
  if (trace.length === 0) return <p className={styles.muted}>No step ran.</p>;
  const toggle = (position: number) => {
    const next = new Set(open);
    if (!next.delete(position)) next.add(position);
    setOpen(next);
  };
  return (
    <ol className={styles.trace} aria-label="Trace">
      {trace.slice(0, shown).map((entry, position) => (
        <TraceRow
          key={`${position}-${entry.index}-${entry.iteration ?? ''}`}
          entry={entry}
          open={open.has(position)}
          onToggle={() => toggle(position)}
          onRunFrom={!running && canStartAt(entry, topLevel) ? () => onRunFrom(entry.index) : undefined}
          onInspect={entry.message ? () => onInspect(position) : undefined}
        />
      ))}
      {trace.length > shown && (
        <li className={styles.more}>
          <button type="button" className={styles.linkButton} onClick={() => setShown(shown + PAGE)}>
            Show {Math.min(PAGE, trace.length - shown)} more of {trace.length - shown} steps
          </button>
        </li>
      )}
    </ol>
  );
}
