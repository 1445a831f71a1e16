/**
 * The run model as it crosses the wire (docs/runs.md): statuses, how a run was started, why it failed, and
 * the records themselves. The server's run history and the workbench's Runs view both read them from here.
 */
import type { TraceStep } from '../runner/trace';

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

/** How a run was started. */
export interface RunTrigger {
  kind: RunTriggerKind;
  /** What started it, where there is a name: the job's pipeline key, the webhook's uid, the listener's key. */
  source?: string;
}

/** What a step is called with: the body, the vars and the headers at that point of the run. */
export interface StepMessage {
  body: unknown;
  vars: Record<string, unknown>;
  headers: Record<string, unknown>;
}

/** The message the failed step saw: what a re-run from that step starts with. */
export interface RunResumePoint {
  stepIndex: number;
  message: StepMessage;
  /** False when a value was bytes or too large: the message is a stand-in and cannot seed a run. */
  exact: boolean;
}

/** What the run list shows of a run. */
export interface RunSummary {
  id: string;
  /** The stored pipeline's key; null for inline text. */
  pipelineKey: string | null;
  /** SHA-256 (hex, first 16) of the pipeline's text, or of its parsed steps when there is no text. */
  pipelineHash: string;
  trigger: RunTrigger;
  /** The run that started this one (`pipeline.start`, `call`), or the one a re-run repeats. */
  parentId: string | null;
  username: string | null;
  userUuid: string | null;
  status: RunStatus;
  created: number;
  started: number | null;
  finished: number | null;
  durationMs: number | null;
  stepsExecuted: number | null;
  error: RunError | null;
  /** Which instance ran it (several instances on one PostgreSQL). */
  instance: string;
  /** Started in the background (an async run: polled by its id, listed by `async.list`). */
  async: boolean;
}

/** One run with everything recorded of it. */
export interface RunDetail extends RunSummary {
  /** The pipeline's text as run (inline runs; stored ones keep their key), when known. */
  source: { text: string; form: 'yaml' | 'json' | 'uri' } | null;
  /** The body the run started with, redacted and cut to a bound. */
  input: unknown;
  /** The final body, redacted and cut to a bound (succeeded runs). */
  output: unknown;
  /** The per-step trace; null when this successful run was not sampled. */
  steps: TraceStep[] | null;
  resume: RunResumePoint | null;
}
