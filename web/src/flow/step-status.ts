/** Each step's status and duration after a run, read from the run's trace (and its error). */
import type { FlowStep } from '../editor/validator-protocol';
import type { RunOutcome } from '../run/run-types';

export interface StepStatus {
  /** `not-run`: the run passed it by (a branch not taken, a step after a failure or an `exit`). */
  status: 'ok' | 'error' | 'skipped' | 'not-run';
  durationMs: number;
  /** How many times it ran (a step in a `foreach` runs once per item). */
  runs: number;
}

const NOT_RUN: StepStatus = { status: 'not-run', durationMs: 0, runs: 0 };

/** Block markers the runner passes by (jumps over or steps past) without a trace entry: they get no status. */
const UNTRACED_ROLES = new Set(['if.else', 'if.end', 'foreach.end']);

/**
 * Statuses by step index (0-based, as in the trace; the flow view shows them 1-based). Steps the trace does
 * not name are `not-run`; a run from a later step leaves the steps before it without status.
 */
export function stepStatuses(
  outcome: RunOutcome | undefined,
  steps: readonly Pick<FlowStep, 'index' | 'role'>[] = [],
): Map<number, StepStatus> {
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
  for (const { index, role } of steps) {
    if (index >= outcome.fromStep && !out.has(index) && !UNTRACED_ROLES.has(role ?? ''))
      out.set(index, NOT_RUN);
  }
  return out;
}
