/**
 * One run: what started it, its status and times, its error with a jump to the editor, the actions
 * (re-run, cancel, open the pipeline) and its steps as a timeline with pins. Polled while it runs.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, useApi } from '../api';
import type { TraceEntry } from '../run/run-types';
import { formatDuration, formatTime, pipelineName } from './run-format';
import { StatusBadge } from './RunList';
import {
  cancelRun,
  getRun,
  listPins,
  mayHavePins,
  pinStep,
  rerun,
  unpinStep,
  type RunView as RunDetail,
} from './runs-api';
import { StepTimeline, stepStatus, type StepActions } from './StepTimeline';
import styles from './runs.module.css';

export interface RunDetailViewProps {
  id: string;
  onSelect(id: string): void;
  /** Opens the stored pipeline in the editor, at a position when given. */
  onOpenAt(key: string, line?: number, column?: number): void;
}

const active = (run: RunDetail | undefined) => run?.status === 'queued' || run?.status === 'running';

/** A step whose recorded output can stand in for it: it ran once, without an error. */
function canPin(entry: TraceEntry): boolean {
  return entry.params !== undefined && !entry.error && !entry.skipped && entry.iteration === undefined;
}

export function RunDetailView({ id, onSelect, onOpenAt }: RunDetailViewProps) {
  const api = useApi();
  const client = useQueryClient();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = useQuery({
    queryKey: ['run', id],
    queryFn: () => getRun(api, id),
    refetchInterval: (query) => (active(query.state.data) ? 1000 : false),
  });
  const key = run.data?.pipelineKey ?? undefined;
  const pinsKey = mayHavePins(key) ? key : undefined;
  const pins = useQuery({
    queryKey: ['pins', pinsKey],
    queryFn: () => listPins(api, pinsKey!),
    enabled: pinsKey !== undefined,
  });

  async function act(work: () => Promise<void>) {
    setBusy(true);
    setProblem(undefined);
    try {
      await work();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  if (run.isPending) return <p className={styles.note}>Loading the run…</p>;
  if (run.isError)
    return (
      <p role="alert" className={styles.problem}>
        {errorText(run.error)}
      </p>
    );
  const detail = run.data;
  const error = detail.error;
  const pinned = new Set((pins.data?.pins ?? []).map((pin) => pin.stepIndex));
  const canRerunFrom = detail.status === 'failed' && detail.resume?.exact === true;

  const startRerun = (fromFailedStep: boolean) =>
    act(async () => {
      const started = await rerun(api, detail.id, fromFailedStep);
      await client.invalidateQueries({ queryKey: ['runs'] });
      onSelect(started.runId);
    });
  const changePin = (work: () => Promise<unknown>) =>
    act(async () => {
      await work();
      await client.invalidateQueries({ queryKey: ['pins', pinsKey] });
    });

  const actionsOf = (entry: TraceEntry): StepActions => ({
    onRerunFrom:
      canRerunFrom && entry.index === detail.resume?.stepIndex && entry.error && !busy
        ? () => void startRerun(true)
        : undefined,
    pin:
      pinsKey !== undefined && pins.isSuccess
        ? {
            pinned: pinned.has(entry.index) && entry.iteration === undefined,
            canPin: canPin(entry) && stepStatus(entry) === 'ok' && !busy,
            onPin: () => void changePin(() => pinStep(api, detail.id, entry.index, pinsKey)),
            onUnpin: () => void changePin(() => unpinStep(api, pinsKey, entry.index)),
          }
        : undefined,
  });

  return (
    <article className={styles.detail} aria-label="Run" data-testid="run-detail">
      <header className={styles.detailHead}>
        <h2 className={styles.title}>
          <StatusBadge status={detail.status} />
          <span className={styles.pipeline}>{pipelineName(detail)}</span>
        </h2>
        <dl className={styles.facts}>
          <dt>Trigger</dt>
          <dd data-testid="detail-trigger">
            {detail.trigger.kind}
            {detail.trigger.source && detail.trigger.source !== key ? ` (${detail.trigger.source})` : ''}
          </dd>
          <dt>User</dt>
          <dd>{detail.username ?? 'nobody'}</dd>
          <dt>Started</dt>
          <dd>{formatTime(detail.started ?? detail.created)}</dd>
          <dt>Duration</dt>
          <dd>{formatDuration(detail.durationMs)}</dd>
          <dt>Steps</dt>
          <dd>{detail.stepsExecuted ?? '–'}</dd>
          <dt>Run</dt>
          <dd className={styles.mono}>{detail.id}</dd>
        </dl>
        <div className={styles.actions}>
          <button type="button" disabled={busy || active(detail)} onClick={() => void startRerun(false)}>
            Re-run
          </button>
          {canRerunFrom && (
            <button type="button" disabled={busy} onClick={() => void startRerun(true)}>
              Re-run from the failed step
            </button>
          )}
          {active(detail) && (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  await cancelRun(api, detail.id);
                  await run.refetch();
                })
              }
            >
              Cancel
            </button>
          )}
          {key && (
            <button type="button" onClick={() => onOpenAt(key)}>
              Open in editor
            </button>
          )}
          {detail.parentId && (
            <button type="button" className={styles.linkButton} onClick={() => onSelect(detail.parentId!)}>
              Parent run
            </button>
          )}
        </div>
        {problem && (
          <p role="alert" className={styles.problem}>
            {problem}
          </p>
        )}
      </header>
      {error && (
        <section className={styles.errorBox} aria-label="Error" data-testid="run-error">
          <p>
            <strong>{error.code}</strong>: {error.message}
          </p>
          {error.line !== undefined && (
            <p className={styles.muted}>
              {error.commandName ? `Step ${(error.commandIndex ?? 0) + 1} '${error.commandName}', ` : ''}
              line {error.line}, column {error.column ?? 1}
              {key && (
                <>
                  {' '}
                  <button
                    type="button"
                    className={styles.linkButton}
                    onClick={() => onOpenAt(key, error.line, error.column ?? 1)}
                  >
                    Show in editor
                  </button>
                </>
              )}
            </p>
          )}
        </section>
      )}
      <h3 className={styles.subTitle}>Steps</h3>
      {detail.steps && detail.steps.length > 0 ? (
        <>
          {detail.steps[0]!.index > 0 && (
            <p className={styles.note}>
              The steps before step {detail.steps[0]!.index + 1} are not in this run's record (it was not
              sampled, or it started there).
            </p>
          )}
          <StepTimeline steps={detail.steps} actionsOf={actionsOf} />
        </>
      ) : (
        <p className={styles.note}>
          {active(detail)
            ? 'The steps show when the run ends.'
            : 'Not recorded: a successful run keeps its steps for a sample of runs only (PIPEWORK_RUNS_TRACE_SAMPLE).'}
        </p>
      )}
      {detail.source && !key && (
        <details className={styles.source}>
          <summary>Pipeline text</summary>
          <pre>{detail.source.text}</pre>
        </details>
      )}
    </article>
  );
}
