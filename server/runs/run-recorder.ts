/**
 * Records runs: every pipeline execution becomes a run with an id (docs/runs.md). The row is written off
 * the request's path, in batches (`flushMillis`), except the first row of an async run, which must be
 * readable (on any instance) as soon as its id is handed out. Successful runs keep their step trace only
 * when sampled (`traceSample`); failed ones keep their failed step and the message it saw.
 */
import { hash as digest, randomUUID } from 'node:crypto';
import type { Principal } from '../../shared/auth';
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import type { PipelineScript } from '../../shared/pipeline';
import type { Cancellation, RunResult } from '../../shared/runner';
import { traceValue, type TraceStep } from '../../shared/runner/trace';
import { stringifyBounded } from '../../shared/values';
import type { Logger } from '../logging/logger';
import { recordMessage } from '../pipeline/step-messages';
import type { LastStepRegistry } from './last-step-registry';
import { redact, redactedJsonCopy, redactText } from './redact';
import { RunCancellation } from './run-cancellation';
import type { SecretMask } from './secret-mask';
import type { RunHistoryConfig } from './run-history-config';
import type { RunDetail, RunError, RunResumePoint, RunStatus } from './run-records';
import { runWriteOf, type RunStore, type RunWrite } from './run-store';
import type { RunTrigger } from './run-trigger';

/** Inputs and outputs up to this size are kept exactly (so a re-run can use them); larger ones are cut. */
const MAX_EXACT_VALUE_CHARS = 64 * 1024;
/** An async run's result is what a poller fetches: kept up to this size. */
const MAX_ASYNC_OUTPUT_CHARS = 1024 * 1024;
/** Pending writes past which a flush starts at once. */
const FLUSH_AT = 200;

/** What a run is recorded with (the parts of `ExecuteOptions` the history needs). */
export interface RecordRequest {
  principal: Principal | null;
  trigger?: RunTrigger;
  pipelineKey?: string;
  /** A run id handed out before the run starts (async runs). */
  runId?: string;
  /** The run that started this one (the run a command started it from, or the run a re-run repeats). */
  parentRunId?: string;
  /** The pipeline's text, kept so the run can be repeated (inline runs). */
  source?: { text: string; form: 'yaml' | 'json' | 'uri' };
  /** Keep the final body (async runs: what the poller fetches). */
  keepOutput?: boolean;
  /** Started in the background (`startAsyncRun`). */
  async?: boolean;
  /** The caller asked for the trace itself (`?trace=true`). */
  trace?: boolean;
  cancellation?: Cancellation;
}

/** A run in progress on this instance. */
export interface ActiveRun {
  readonly id: string;
  /** Whether the runner should record the step trace (sampled, or asked for by the caller). */
  readonly traced: boolean;
  readonly cancellation: RunCancellation;
  /** Set by whoever runs it: the registry that notes each step's message (`last-step-registry.ts`). */
  steps: Pick<LastStepRegistry<unknown>, 'lastIndex' | 'lastScope'> | null;
}

/** Told of every finished run (the metrics). */
export type RunListener = (run: RunDetail) => void;

const hashes = new WeakMap<object, string>();

type RunSource = NonNullable<RunDetail['source']>;

/** What is kept of a pipeline text seen lately: its hash, and its redacted form as one source object per form. */
interface SeenText {
  hash: string;
  redacted: string;
  /** Shared by the runs of the text (never changed: the history's writer keeps its JSON by it). */
  sources: Partial<Record<RunSource['form'], RunSource>>;
}

/** The last pipeline texts: the same text is usually run again and again. */
const seenTexts = new Map<string, SeenText>();
const SEEN_TEXTS_KEPT = 256;

function seenText(text: string): SeenText {
  let seen = seenTexts.get(text);
  if (seen === undefined) {
    seen = {
      hash: digest('sha256', text, 'hex').slice(0, 16),
      redacted: redactText(text),
      sources: {},
    };
    if (seenTexts.size >= SEEN_TEXTS_KEPT) seenTexts.clear();
    seenTexts.set(text, seen);
  }
  return seen;
}

function hashOf(script: PipelineScript, text: string | undefined): string {
  if (text !== undefined) return seenText(text).hash;
  let hash = hashes.get(script.steps);
  if (hash === undefined) {
    const shape = JSON.stringify(script.steps.map((s) => [s.command, s.params]));
    hash = digest('sha256', shape ?? '', 'hex').slice(0, 16);
    hashes.set(script.steps, hash);
  }
  return hash;
}

/** The JSON pipeline of a script that came without text (a command call): enough to run it again. */
function sourceOfScript(script: PipelineScript): RunDetail['source'] {
  const only = script.steps.length === 1 ? script.steps[0]! : undefined;
  const bare = only !== undefined && isEmpty(only.params) && isEmpty(script.headers) && isEmpty(script.vars);
  if (!bare) return jsonSourceOf(script);
  // A command called without parameters (`GET /api/v3/command/datetime`) has the same text every time.
  let source = bareCallSources.get(only.command);
  if (source === undefined) {
    source = jsonSourceOf(script);
    if (bareCallSources.size >= SEEN_TEXTS_KEPT) bareCallSources.clear();
    bareCallSources.set(only.command, source);
  }
  return source;
}

const bareCallSources = new Map<string, RunDetail['source']>();

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

function jsonSourceOf(script: PipelineScript): RunDetail['source'] {
  const steps = script.steps.map((s) => ({ [s.command]: s.params }));
  const doc = stringifyBounded(
    { headers: script.headers, vars: script.vars, pipeline: steps },
    MAX_EXACT_VALUE_CHARS,
  );
  return doc.ok ? { text: doc.text, form: 'json' } : null;
}

function redactSource(source: RunDetail['source']): RunDetail['source'] {
  if (source === null) return null;
  const seen = seenText(source.text);
  return (seen.sources[source.form] ??= Object.freeze({ text: seen.redacted, form: source.form }));
}

/** A value kept exactly when it is small JSON, else as the trace's stand-in. */
function keptValue(value: unknown, maxChars: number, mask?: SecretMask): unknown {
  if (value === undefined || value === null) return null;
  const plain = redactedJsonCopy(value, maxChars, mask);
  if (plain !== undefined) return plain;
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return redact(traceValue(value), mask);
  }
  const json = stringifyBounded(value, maxChars);
  return redact(json.ok ? (JSON.parse(json.text) as unknown) : traceValue(value), mask);
}

function errorOf(error: unknown): RunError {
  if (!isPipeworkError(error)) return { code: 'INTERNAL', message: 'An internal error ended the run.' };
  const d = error.details;
  const out: RunError = { code: error.code, message: error.message };
  if (typeof d.line === 'number') out.line = d.line;
  if (typeof d.column === 'number') out.column = d.column;
  if (typeof d.commandName === 'string') out.commandName = d.commandName;
  if (typeof d.commandIndex === 'number') out.commandIndex = d.commandIndex;
  return out;
}

/** The error without the trace the history turned on (the caller did not ask for it). */
function withoutTrace(error: unknown): unknown {
  if (!isPipeworkError(error) || error.details.trace === undefined) return error;
  const { trace: _trace, ...details } = error.details;
  const copy = new PipeworkError(error.code, error.message, details, { cause: error.cause });
  copy.stack = error.stack;
  return copy;
}

export class RunRecorder {
  readonly instanceId = randomUUID();
  private pending: RunWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly active = new Map<string, ActiveRun>();
  private readonly listeners: RunListener[] = [];
  /** Records made before their run starts (queued async runs), by id. */
  private readonly prepared = new Map<string, RunDetail>();

  constructor(
    private readonly store: RunStore,
    readonly config: RunHistoryConfig,
    private readonly logger: Logger,
  ) {}

  onFinished(listener: RunListener): void {
    this.listeners.push(listener);
  }

  /** The ids of the runs in progress on this instance. */
  activeIds(): string[] {
    return [...this.active.keys()];
  }

  /** Cancels a run in progress on this instance; false when it is not here. */
  cancelLocal(id: string): boolean {
    const run = this.active.get(id);
    if (!run) return false;
    run.cancellation.cancel();
    return true;
  }

  /** Writes a queued run's row now (awaited: its id is about to be handed out) and keeps it for its start. */
  async prepare(run: RunDetail): Promise<void> {
    await this.store.write([runWriteOf(run)]);
    this.prepared.set(run.id, run);
  }

  /** A queued run that will not start: recorded as cancelled. */
  cancelPrepared(id: string): void {
    const run = this.prepared.get(id);
    if (!run) return;
    this.prepared.delete(id);
    run.status = 'cancelled';
    run.finished = Date.now();
    run.error = { code: 'LIMIT_EXCEEDED', message: 'The run was cancelled before it started.' };
    this.enqueue(run);
    for (const listener of this.listeners) listener(run);
  }

  /** A new run's record, before it runs. */
  newRun(
    script: PipelineScript,
    request: RecordRequest,
    status: RunStatus,
    parentRunId = request.parentRunId,
  ): RunDetail {
    const principal = request.principal;
    const pipelineKey = request.pipelineKey ?? null;
    const source = request.source ?? (pipelineKey === null ? sourceOfScript(script) : null);
    return {
      id: request.runId ?? randomUUID(),
      pipelineKey,
      // A command call's source is made from its script: its text's hash (kept for the next call) is the hash.
      pipelineHash: hashOf(script, source?.text),
      trigger: request.trigger ?? { kind: 'http' },
      parentId: parentRunId ?? null,
      username: principal?.username ?? null,
      userUuid: principal?.uuid ?? null,
      status,
      created: Date.now(),
      started: null,
      finished: null,
      durationMs: null,
      stepsExecuted: null,
      error: null,
      instance: this.instanceId,
      async: request.async === true,
      source: redactSource(source),
      // Masked with the run's secrets when it ends (`maskKeptText`), once they are known.
      input: keptValue(script.body, MAX_EXACT_VALUE_CHARS),
      output: null,
      steps: null,
      resume: null,
    };
  }

  /**
   * Runs `execute` as a recorded run (`execute` hands the run's id to the services its commands get). `mask`:
   * the run's secret values, which what the history keeps is masked with too; `parentRunId`: the run that
   * started it, when `request` names none.
   */
  async record(
    script: PipelineScript,
    request: RecordRequest,
    execute: (run: ActiveRun) => Promise<RunResult>,
    mask?: SecretMask,
    parentRunId = request.parentRunId,
  ): Promise<RunResult> {
    const existing = request.runId === undefined ? undefined : this.prepared.get(request.runId);
    if (existing) this.prepared.delete(existing.id);
    const record = existing ?? this.newRun(script, request, 'running', parentRunId);
    record.status = 'running';
    record.started = Date.now();
    record.instance = this.instanceId;
    const traced = request.trace === true || Math.random() < this.config.traceSample;
    const active: ActiveRun = {
      id: record.id,
      traced,
      cancellation: new RunCancellation(request.cancellation),
      steps: null,
    };
    this.active.set(record.id, active);
    if (existing) this.enqueue({ ...record });
    try {
      const result = await execute(active);
      record.status = 'succeeded';
      record.stepsExecuted = result.stepsExecuted;
      if (traced && result.trace) record.steps = redact(result.trace, mask) as TraceStep[];
      if (request.keepOutput) record.output = keptValue(result.body, MAX_ASYNC_OUTPUT_CHARS, mask);
      else if (traced) record.output = keptValue(result.body, MAX_EXACT_VALUE_CHARS, mask);
      if (!request.trace) delete result.trace;
      return result;
    } catch (error) {
      record.status = active.cancellation.cancelled ? 'cancelled' : 'failed';
      record.error = errorOf(error);
      this.noteFailure(record, active, error, mask);
      throw request.trace ? error : withoutTrace(error);
    } finally {
      this.active.delete(record.id);
      record.finished = Date.now();
      record.durationMs = record.finished - record.started;
      if (mask && !mask.emptyForRecords) maskKeptText(record, mask);
      this.enqueue(record);
      for (const listener of this.listeners) listener(record);
    }
  }

  /** The failed step: its trace (when traced) or a one-step stand-in, and the message it saw. */
  private noteFailure(
    record: RunDetail,
    active: ActiveRun,
    error: unknown,
    mask: SecretMask | undefined,
  ): void {
    const trace = isPipeworkError(error) ? error.details.trace : undefined;
    if (Array.isArray(trace)) record.steps = redact(trace, mask) as TraceStep[];
    const registry = active.steps;
    const failedIndex = record.error?.commandIndex;
    if (registry?.lastScope && failedIndex !== undefined && failedIndex === registry.lastIndex) {
      const { message, exact } = recordMessage(registry.lastScope);
      const resume: RunResumePoint = {
        stepIndex: failedIndex,
        message: redact(message, mask) as RunResumePoint['message'],
        exact,
      };
      record.resume = resume;
      if (!record.steps) {
        record.steps = [
          {
            index: failedIndex,
            command: record.error?.commandName ?? '',
            input: traceValue(resume.message.body),
            durationMs: 0,
            logs: [],
            error: { code: record.error!.code, message: record.error!.message },
          },
        ];
      }
    }
  }

  private enqueue(run: RunDetail): void {
    this.pending.push(runWriteOf(run));
    if (this.pending.length >= FLUSH_AT) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.config.flushMillis);
      this.timer.unref();
    }
  }

  /** Writes everything pending (in order, one batch at a time). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      try {
        await this.store.write(batch);
      } catch (error) {
        this.logger.error({ err: error, runs: batch.length }, 'run history could not be written');
      }
    });
    return this.flushing;
  }
}

/**
 * The source and input as sent were kept before the run registered its secret values: masked with them too,
 * so a value a caller wrote into the text is not kept where the answer masks it.
 */
function maskKeptText(record: RunDetail, mask: SecretMask): void {
  if (record.source) record.source = { ...record.source, text: mask.recordText(record.source.text) };
  if (record.input !== null) record.input = redact(record.input, mask);
}
