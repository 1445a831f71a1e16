/**
 * The Runs view (`#/runs?run=<id>`): every run the user may see, newest first, polled every two seconds
 * while the page is visible, with filters; the chosen run beside the list (below it when the view is narrow).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, useApi } from '../api';
import { RunDetailView } from './RunDetailView';
import { RunFilters } from './RunFilters';
import { RunList } from './RunList';
import { listRuns, type RunFilter } from './runs-api';
import { useDebounced } from './useDebounced';
import styles from './runs.module.css';

const POLL_MILLIS = 2000;

const runCount = (n: number) => (n === 1 ? '1 run' : `${n} runs`);

export interface RunsViewProps {
  runId?: string;
  onSelect(id: string): void;
  onOpenAt(key: string, line?: number, column?: number): void;
}

export default function RunsView({ runId, onSelect, onOpenAt }: RunsViewProps) {
  const api = useApi();
  const [filter, setFilter] = useState<RunFilter>({});
  const settled = useDebounced(filter);
  const runs = useQuery({
    queryKey: ['runs', settled],
    queryFn: () => listRuns(api, settled),
    refetchInterval: POLL_MILLIS,
    placeholderData: keepPreviousData,
  });
  return (
    <section className={styles.view} aria-labelledby="runs-title">
      <div className={styles.top}>
        <h1 id="runs-title" className={styles.heading}>
          Runs
        </h1>
        <span className={styles.live} aria-live="polite">
          {runs.isError ? '' : runs.isFetching ? 'Updating…' : runCount(runs.data?.total ?? 0)}
        </span>
      </div>
      <RunFilters filter={filter} onChange={setFilter} />
      <div className={styles.split}>
        <div className={styles.listPane} aria-busy={runs.isPlaceholderData || filter !== settled}>
          {runs.isError ? (
            <p role="alert" className={styles.problem}>
              {errorText(runs.error)}
            </p>
          ) : runs.data ? (
            <RunList runs={runs.data.runs} total={runs.data.total} selected={runId} onSelect={onSelect} />
          ) : (
            <p className={styles.note}>Loading the runs…</p>
          )}
        </div>
        <div className={styles.detailPane}>
          {runId ? (
            <RunDetailView key={runId} id={runId} onSelect={onSelect} onOpenAt={onOpenAt} />
          ) : (
            <p className={styles.note}>Choose a run to see its steps.</p>
          )}
        </div>
      </div>
    </section>
  );
}
