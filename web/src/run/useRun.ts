/**
 * The runs of the document: a whole run, or a run from a chosen step seeded with the message that step saw
 * in the last run; the earlier steps' rows are kept from that run.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiError, useApi } from '../api';
import type { PipelineForm } from '../editor';
import { runPipeline } from './run-api';
import type { RunOutcome, TraceEntry } from './run-types';

export interface RunSource {
  text: string;
  form: PipelineForm;
  /** The stored pipeline the text belongs to: the run is recorded under it. */
  key?: string;
  /** Ask the server to use the pipeline's pins instead of running the pinned steps (docs/runs.md). */
  pins?: boolean;
}

export interface RunState {
  outcome?: RunOutcome;
  running: boolean;
  /** The step a running run started at. */
  runningFrom?: number;
}

/** Whether a run can start at this row: a top-level step whose recorded message is exact. */
export function canStartAt(entry: TraceEntry, topLevel: ReadonlySet<number>): boolean {
  return (
    entry.iteration === undefined &&
    topLevel.has(entry.index) &&
    entry.message !== undefined &&
    entry.exact === true
  );
}

function keptRows(previous: RunOutcome, fromStep: number): TraceEntry[] {
  const firstAt = previous.trace.findIndex((entry) => entry.index >= fromStep);
  const before = firstAt < 0 ? previous.trace : previous.trace.slice(0, firstAt);
  return before.map((entry) => ({ ...entry, kept: true }));
}

export function usePipelineRun(source: () => RunSource) {
  const api = useApi();
  const [state, setState] = useState<RunState>({ running: false });
  const current = useRef<AbortController | null>(null);
  const last = useRef<RunOutcome | undefined>(undefined);

  const start = useCallback(
    async (fromStep?: number) => {
      const { text, form, key, pins } = source();
      const previous = last.current;
      let seed;
      if (fromStep !== undefined) {
        const entry = previous?.trace.find((e) => e.index === fromStep && e.message && e.exact);
        if (!previous || !entry?.message) return;
        seed = entry.message;
      }
      current.current?.abort();
      const abort = new AbortController();
      current.current = abort;
      setState((s) => ({ ...s, running: true, runningFrom: fromStep }));
      try {
        const stored = key === undefined ? {} : { key, ...(pins ? { pins: true } : {}) };
        let outcome = await runPipeline(
          api,
          { pipeline: text, form, fromStep, seed, ...stored },
          abort.signal,
        );
        if (abort.signal.aborted) return;
        if (previous && fromStep !== undefined) {
          const refused = !outcome.ok && ['fromStep', 'seed'].includes(String(outcome.error.value.parameter));
          // A refused start ran nothing: the last run's rows stay as they were, under the error.
          const kept = refused ? previous.trace : keptRows(previous, fromStep);
          outcome = { ...outcome, trace: [...kept, ...outcome.trace] };
        }
        last.current = outcome;
        setState({ outcome, running: false });
      } catch (failure) {
        if (abort.signal.aborted) return;
        const error = new ApiError(0, { code: 'CLIENT', message: String(failure) });
        setState({
          outcome: { ok: false, error, trace: [], fromStep: 0, source: text, form, finishedAt: Date.now() },
          running: false,
        });
      }
    },
    [api, source],
  );

  const run = useCallback(() => void start(), [start]);
  const runFrom = useCallback((step: number) => void start(step), [start]);
  /** Forgets the last run (and stops a running one): another pipeline was opened. */
  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    last.current = undefined;
    setState({ running: false });
  }, []);

  return useMemo(() => ({ ...state, run, runFrom, reset }), [state, run, runFrom, reset]);
}

export type PipelineRun = ReturnType<typeof usePipelineRun>;
