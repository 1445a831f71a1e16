/**
 * The names of the run model that cross the wire (docs/runs.md): statuses, how a run was started, and why it
 * failed. The server's run records and the workbench's Runs view both read them from here.
 */

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Every way a pipeline starts is one of these (one run model). */
export const RUN_TRIGGER_KINDS = [
  'http',
  'stored',
  'cli',
  'workbench',
  'pipeline',
  'event',
  'job',
  'webhook',
  'async',
] as const;
export type RunTriggerKind = (typeof RUN_TRIGGER_KINDS)[number];

/** Why a run failed, with where in the source. */
export interface RunError {
  code: string;
  message: string;
  line?: number;
  column?: number;
  commandName?: string;
  commandIndex?: number;
}
