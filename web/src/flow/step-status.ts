/** Each step's status and duration after a run, read from the run's trace (and its error). */
import type { RunOutcome } from '../run/run-types';

export interface StepStatus {
  status: 'ok' | 'error' | 'skipped';
  durationMs: number;
  /** How many times it ran (a step in a `foreach` runs once per item). */
  runs: number;
}

/** Statuses by step index; steps the run never reached have none. */
export function stepStatuses(outcome: RunOutcome | undefined): Map<number, StepStatus> {
  const out = new Map<number, StepStatus>();
  if (!outcome) return out;
  for (const entry of outcome.trace) {
    const known = out.get(entry.index) ?? { status: 'skipped', durationMs: 0, runs: 0 };
    if (entry.error) known.status = 'error';
    else if (!entry.skipped && known.status !== 'error') known.status = 'ok';
    known.durationMs += entry.durationMs;
    if (!entry.skipped) known.runs++;
    out.set(entry.index, known);
  }
  if (!outcome.ok) {
    const at = outcome.error.value.commandIndex;
    if (typeof at === 'number') {
      const known = out.get(at) ?? { status: 'error', durationMs: 0, runs: 0 };
      known.status = 'error';
      out.set(at, known);
    }
  }
  return out;
}
