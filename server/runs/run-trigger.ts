/** How a run was started: every way a pipeline starts is one of these (one run model, docs/runs.md). */

import type { RunTriggerKind } from '../../shared/runs/run-wire';

export { RUN_TRIGGER_KINDS, type RunTriggerKind } from '../../shared/runs/run-wire';

export interface RunTrigger {
  kind: RunTriggerKind;
  /** What started it, where there is a name: the job's pipeline key, the webhook's uid, the listener's key. */
  source?: string;
}
