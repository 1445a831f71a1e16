/**
 * A run's steps as a timeline: each step's status and duration (a bar against the longest step), opening to
 * its evaluated parameters, input, output (cut to the trace's bound) and log lines; the failed step offers
 * "Re-run from here", a successful step of a stored pipeline "Pin output" (or "Unpin").
 */
import { useState } from 'react';
import { JsonTree } from '../run/JsonTree';
import type { TraceEntry } from '../run/run-types';
import { formatDuration } from './run-format';
import styles from './runs.module.css';

export const PINNED_LOG = /^Pinned: the output recorded in run/;

export function stepStatus(entry: TraceEntry): string {
  if (entry.error) return 'failed';
  if (entry.skipped) return 'skipped';
  if (entry.pinned || entry.logs.some((log) => PINNED_LOG.test(log.message))) return 'pinned';
  return 'ok';
}

export interface StepActions {
  /** Offered on the failed step when the run can start there again. */
  onRerunFrom?(): void;
  /** Pins offered: whether this step is pinned, and how to change it. */
  pin?: { pinned: boolean; canPin: boolean; onPin(): void; onUnpin(): void };
}

function Section({ title, value }: { title: string; value: unknown }) {
  if (value === undefined) return null;
  return (
    <section className={styles.section}>
      <h4>{title}</h4>
      <JsonTree value={value} openDepth={1} label={title} />
    </section>
  );
}

function StepRow({ entry, longest, actions }: { entry: TraceEntry; longest: number; actions: StepActions }) {
  const [open, setOpen] = useState(entry.error !== undefined);
  const status = stepStatus(entry);
  const width = longest > 0 ? Math.max(2, Math.round((entry.durationMs / longest) * 100)) : 2;
  const { pin, onRerunFrom } = actions;
  return (
    <li className={`${styles.step} ${styles[`step-${status}`] ?? ''}`} data-testid="run-step">
      <div className={styles.stepHead}>
        <button
          type="button"
          className={styles.stepToggle}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className={styles.stepNo}>{entry.index + 1}</span>
          <span className={styles.command}>{entry.command}</span>
          {entry.iteration !== undefined && (
            <span className={styles.muted}>iteration {entry.iteration + 1}</span>
          )}
        </button>
        <span className={`${styles.badge} ${styles[`status-${status}`] ?? ''}`} data-testid="step-status">
          {status}
        </span>
        <span className={styles.bar} aria-hidden="true">
          <span style={{ width: `${width}%` }} />
        </span>
        <span className={styles.duration}>{formatDuration(entry.durationMs)}</span>
        <span className={styles.stepActions}>
          {onRerunFrom && (
            <button type="button" className={styles.small} onClick={onRerunFrom}>
              Re-run from here
            </button>
          )}
          {pin?.pinned ? (
            <button type="button" className={styles.small} onClick={pin.onUnpin}>
              Unpin
            </button>
          ) : (
            pin?.canPin && (
              <button
                type="button"
                className={styles.small}
                onClick={pin.onPin}
                title="Use this output instead of running the step while editing"
              >
                Pin output
              </button>
            )
          )}
        </span>
      </div>
      {open && (
        <div className={styles.stepBody}>
          {entry.error && (
            <p className={styles.stepError}>
              {entry.error.code}: {entry.error.message}
            </p>
          )}
          {entry.logs.length > 0 && (
            <section className={styles.section}>
              <h4>Log</h4>
              <ul className={styles.logs}>
                {entry.logs.map((log, i) => (
                  <li key={i}>
                    <span className={styles.logLevel}>{log.level}</span> {log.message}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <div className={styles.sections}>
            <Section title="Parameters" value={entry.params} />
            <Section title="Input" value={entry.input} />
            <Section title="Output" value={entry.output} />
          </div>
        </div>
      )}
    </li>
  );
}

export function StepTimeline({
  steps,
  actionsOf,
}: {
  steps: TraceEntry[];
  actionsOf(entry: TraceEntry): StepActions;
}) {
  const longest = Math.max(0, ...steps.map((step) => step.durationMs));
  return (
    <ol className={styles.timeline} aria-label="Steps">
      {steps.map((entry, i) => (
        <StepRow
          key={`${entry.index}-${entry.iteration ?? ''}-${i}`}
          entry={entry}
          longest={longest}
          actions={actionsOf(entry)}
        />
      ))}
    </ol>
  );
}
