/** The live list of runs, newest first: one button per run that opens it beside the list. */
import { formatDuration, formatTime, pipelineName } from './run-format';
import type { RunSummary } from './runs-api';
import styles from './runs.module.css';

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`${styles.badge} ${styles[`status-${status}`] ?? ''}`} data-testid="run-status">
      {status}
    </span>
  );
}

export interface RunListProps {
  runs: RunSummary[];
  total: number;
  selected?: string;
  onSelect(id: string): void;
}

export function RunList({ runs, total, selected, onSelect }: RunListProps) {
  if (runs.length === 0) return <p className={styles.note}>No runs match.</p>;
  return (
    <>
      <ul className={styles.list} aria-label="Runs">
        {runs.map((run) => (
          <li key={run.id}>
            <button
              type="button"
              className={styles.row}
              aria-current={run.id === selected ? 'true' : undefined}
              data-testid="run-row"
              data-run-id={run.id}
              onClick={() => onSelect(run.id)}
            >
              <span className={styles.rowTop}>
                <StatusBadge status={run.status} />
                <span className={styles.pipeline} title={pipelineName(run)}>
                  {pipelineName(run)}
                </span>
              </span>
              <span className={styles.rowMeta}>
                <span data-testid="run-trigger">{run.trigger.kind}</span>
                <span>{run.username ?? 'nobody'}</span>
                <span>{formatTime(run.started ?? run.created)}</span>
                <span>{formatDuration(run.durationMs)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {total > runs.length && (
        <p className={styles.note}>
          {runs.length} of {total} shown: narrow the filters to find older runs.
        </p>
      )}
    </>
  );
}
