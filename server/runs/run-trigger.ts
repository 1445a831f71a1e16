/** How a run was started: every way a pipeline starts is one of these (one run model, docs/runs.md). */

export type RunTriggerKind =
  'http' | 'stored' | 'cli' | 'workbench' | 'pipeline' | 'event' | 'job' | 'webhook' | 'async';

export const RUN_TRIGGER_KINDS: readonly RunTriggerKind[] = [
  'http',
  'stored',
  'cli',
  'workbench',
  'pipeline',
  'event',
  'job',
  'webhook',
  'async',
];

export interface RunTrigger {
  kind: RunTriggerKind;
  /** What started it, where there is a name: the job's pipeline key, the webhook's uid, the listener's key. */
  source?: string;
}
