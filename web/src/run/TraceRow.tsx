/** One step of the trace: a summary row that opens to its parameters, input, output, logs and message. */
import { JsonTree } from './JsonTree';
import type { TraceEntry } from './run-types';
import styles from './run.module.css';

export interface TraceRowProps {
  entry: TraceEntry;
  open: boolean;
  onToggle(): void;
  /** Offered on rows a run can start at. */
  onRunFrom?(): void;
  onInspect?(): void;
}

function statusOf(entry: TraceEntry): { label: string; className: string } {
  if (entry.error) return { label: entry.error.code, className: styles.statusError };
  if (entry.skipped) return { label: 'skipped', className: styles.statusSkipped };
  if (entry.pinned) return { label: 'pinned', className: styles.statusPinned };
  return { label: 'ok', className: styles.statusOk };
}

function Section({ title, value }: { title: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <section className={styles.traceSection}>
      <h4>{title}</h4>
      <JsonTree value={value} openDepth={1} label={title} />
    </section>
  );
}

export function TraceRow({ entry, open, onToggle, onRunFrom, onInspect }: TraceRowProps) {
  const status = statusOf(entry);
  const logLines = entry.logs.length;
  return (
    <li
      className={[styles.traceItem, entry.kept && styles.kept, entry.iteration !== undefined && styles.nested]
        .filter(Boolean)
        .join(' ')}
      data-testid="trace-row"
    >
      <div className={styles.traceRow}>
        <button type="button" className={styles.traceToggle} aria-expanded={open} onClick={onToggle}>
          <span className={styles.caret}>{open ? '▾' : '▸'}</span>
          <span className={styles.stepNo}>{entry.index + 1}</span>
          <span className={styles.command} data-testid="trace-command" title={entry.command}>
            {entry.command}
          </span>
          {entry.iteration !== undefined && (
            <span className={styles.iteration}>iteration {entry.iteration + 1}</span>
          )}
          {entry.kept && (
            <span className={styles.keptTag} title="Not run again: kept from the last run">
              kept
            </span>
          )}
        </button>
        <span className={status.className} data-testid="trace-status" title={status.label}>
          {status.label}
        </span>
        <span className={styles.logCount} title="Log lines">
          {logLines > 0 ? `${logLines} log${logLines > 1 ? 's' : ''}` : ''}
        </span>
        <span className={styles.duration}>{entry.durationMs} ms</span>
        <span className={styles.rowActions}>
          {onInspect && (
            <button
              type="button"
              className={styles.smallButton}
              onClick={onInspect}
              title="Evaluate expressions against this step's message"
            >
              Console
            </button>
          )}
          {onRunFrom && (
            <button
              type="button"
              className={styles.smallButton}
              onClick={onRunFrom}
              title="Run again from this step, with the earlier steps' results kept"
            >
              Run from here
            </button>
          )}
        </span>
      </div>
      {open && (
        <div className={styles.traceDetails}>
          {entry.error && (
            <p className={styles.stepError}>
              {entry.error.code}: {entry.error.message}
            </p>
          )}
          {logLines > 0 && (
            <section className={styles.traceSection}>
              <h4>Log</h4>
              <ul className={styles.logs}>
                {entry.logs.map((log, i) => (
                  <li key={i} className={styles[`log${log.level}`] ?? ''}>
                    <span className={styles.logLevel}>{log.level}</span> {log.message}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <div className={styles.traceGrid}>
            <Section title="Parameters" value={entry.params} />
            <Section title="Input" value={entry.input} />
            <Section title="Output" value={entry.output} />
            <Section title="Vars" value={entry.message?.vars} />
          </div>
        </div>
      )}
    </li>
  );
}
