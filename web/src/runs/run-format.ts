/** How the Runs view writes a run's facts: its name, times and durations. */
import type { RunSummary } from './runs-api';

/** The stored pipeline's key, or the inline text's hash. */
export function pipelineName(run: Pick<RunSummary, 'pipelineKey' | 'pipelineHash'>): string {
  return run.pipelineKey ?? `inline ${run.pipelineHash.slice(0, 8)}`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The local time of day, with the date when it is not today. */
export function formatTime(epochMs: number, now = Date.now()): string {
  const at = new Date(epochMs);
  const time = at.toLocaleTimeString(undefined, { hour12: false });
  return new Date(now).toDateString() === at.toDateString()
    ? time
    : `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

export function triggerLabel(run: Pick<RunSummary, 'trigger'>): string {
  return run.trigger.kind;
}
