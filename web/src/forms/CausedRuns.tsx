/**
 * The listener runs a submission caused, each with its status and its run record (status, timing, error and
 * the steps of its trace when it was kept), read from `GET /api/v3/runs/<id>` on demand.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { endpointUrl, getRun } from '../../../shared/api';
import { useApi } from '../api';
import styles from './forms.module.css';
import type { CausedRun } from './useFollowRuns';

interface RunDetail extends CausedRun {
  stepsExecuted?: number | null;
  steps?: { command?: string; durationMs?: number; error?: { message?: string } | null }[] | null;
}

function RunRecord({ id }: { id: string }) {
  const api = useApi();
  const record = useQuery({
    queryKey: ['run-record', id],
    queryFn: async () => {
      const response = await api.fetch(endpointUrl(getRun, { id }));
      if (!response.ok) throw new Error(`The run record could not be read (HTTP ${response.status}).`);
      return (await response.json()) as RunDetail;
    },
  });
  if (record.isPending) return <p>Reading the run record…</p>;
  if (record.isError) return <p role="alert">{record.error.message}</p>;
  const run = record.data;
  return (
    <dl className={styles.record} aria-label={`Run record ${id}`}>
      <dt>Run</dt>
      <dd>
        <code>{run.id}</code>
      </dd>
      <dt>Started</dt>
      <dd>{new Date(run.created).toLocaleString()}</dd>
      <dt>Duration</dt>
      <dd>{run.durationMs ?? '–'} ms</dd>
      <dt>Steps</dt>
      <dd>
        {run.steps?.length
          ? run.steps.map((s) => s.command ?? '?').join(' → ')
          : `${run.stepsExecuted ?? 0} (trace not kept for this run)`}
      </dd>
      {run.error && (
        <>
          <dt>Error</dt>
          <dd>
            {run.error.code}: {run.error.message}
          </dd>
        </>
      )}
    </dl>
  );
}

export function CausedRuns({ runs }: { runs: readonly CausedRun[] }) {
  const [open, setOpen] = useState<string | null>(null);
  if (runs.length === 0) return null;
  return (
    <ul className={styles.runs} aria-label="Listener runs">
      {runs.map((run) => (
        <li key={run.id} data-status={run.status}>
          <span className={styles.runStatus}>{run.status}</span> <code>{run.pipelineKey}</code>
          {run.error?.message && <span className={styles.problem}> {run.error.message}</span>}{' '}
          <button
            type="button"
            aria-expanded={open === run.id}
            onClick={() => setOpen((o) => (o === run.id ? null : run.id))}
          >
            Run record<span className={styles.hiddenText}> of {run.pipelineKey}</span>
          </button>
          {open === run.id && <RunRecord id={run.id} />}
        </li>
      ))}
    </ul>
  );
}
