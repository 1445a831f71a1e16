/**
 * The workbench's debug runs: the message (body, vars, headers) each step saw, recorded next to its trace
 * entry, and a run that starts at a chosen step with the message that step saw in an earlier run.
 *
 * Nothing in the runner changes: a registry that wraps every command records the scope when the command is
 * called, and a seed step (known only to this registry) puts a recorded message back into the scope.
 */
import {
  CommandRegistry,
  defineCommand,
  type CommandContract,
  type CommandDefinition,
  type ControlFlowRole,
  type PipelineScope,
} from '../../shared/commands';
import { PipeworkError } from '../../shared/errors';
import { scriptWith } from '../../shared/pipeline/lazy-positions';
import type { PipelineScript, PipelineStep } from '../../shared/pipeline/model';
import type { TraceStep } from '../../shared/runner/trace';
import { traceValue } from '../../shared/runner/trace';
import { isBinaryContent } from '../../shared/values';

import type { StepMessage } from '../../shared/runs/run-wire';

export type { StepMessage };

export interface RecordedMessage {
  message: StepMessage;
  /** False when a value was bytes or too large and the message holds a stand-in: it cannot seed a run. */
  exact: boolean;
}

/** A message larger than this (as JSON) is recorded cut, like trace values. */
const MAX_EXACT_MESSAGE_CHARS = 256 * 1024;
/** All messages of one run together; past it, later steps get none (a long loop stays affordable). */
const MAX_RUN_MESSAGE_CHARS = 8 * 1024 * 1024;

const TOO_LARGE = Symbol('too large');

/** JSON of a value, or why not: bytes in it, too large, or not JSON at all. One pass, stopped early. */
function exactJson(value: unknown, maxChars: number): string | undefined {
  let size = 0;
  try {
    // The replacer sees values after their toJSON: look at the holder's own value to spot bytes.
    return JSON.stringify(value, function (this: Record<string, unknown>, key: string, item: unknown) {
      const own = this[key];
      if (isBinaryContent(own) || own instanceof Uint8Array) throw TOO_LARGE;
      size += key.length + (typeof item === 'string' ? item.length + 4 : 8);
      if (size > maxChars) throw TOO_LARGE;
      return item;
    });
  } catch {
    return undefined;
  }
}

/** The scope as plain JSON, exactly when it can be, else with the trace's stand-ins. */
export function recordMessage(scope: PipelineScope): RecordedMessage & { chars: number } {
  const whole = { body: scope.body ?? null, vars: { ...scope.vars }, headers: { ...scope.headers } };
  const text = exactJson(whole, MAX_EXACT_MESSAGE_CHARS);
  if (text !== undefined && text.length <= MAX_EXACT_MESSAGE_CHARS) {
    return { message: JSON.parse(text) as StepMessage, exact: true, chars: text.length };
  }
  const message: StepMessage = {
    body: traceValue(whole.body) ?? null,
    vars: traceValue(whole.vars) as Record<string, unknown>,
    headers: traceValue(whole.headers) as Record<string, unknown>,
  };
  return { message, exact: false, chars: JSON.stringify(message).length };
}

interface Snapshot {
  index: number;
  recorded: RecordedMessage | null;
}

/** The server's commands, each recording the message it is called with. */
export class RecordingRegistry<S> extends CommandRegistry<S> {
  readonly snapshots: Snapshot[] = [];
  private readonly wrapped = new Map<string, CommandDefinition<S>>();
  private chars = 0;

  constructor(
    private readonly real: CommandRegistry<S>,
    private readonly extra: CommandDefinition<S>[] = [],
  ) {
    super();
  }

  override get(name: string): CommandDefinition<S> | undefined {
    const own = this.extra.find((d) => d.contract.name === name);
    if (own) return own;
    const definition = this.real.get(name);
    if (!definition || definition.contract.controlFlow) return definition;
    let wrapped = this.wrapped.get(name);
    if (!wrapped) {
      wrapped = {
        contract: definition.contract,
        run: (ctx) => {
          this.record(ctx.step.index, ctx.scope);
          return definition.run(ctx);
        },
      };
      this.wrapped.set(name, wrapped);
    }
    return wrapped;
  }

  override contracts(): CommandContract[] {
    return this.real.contracts();
  }

  private record(index: number, scope: PipelineScope): void {
    if (this.chars > MAX_RUN_MESSAGE_CHARS) {
      this.snapshots.push({ index, recorded: null });
      return;
    }
    const { chars, ...recorded } = recordMessage(scope);
    this.chars += chars;
    this.snapshots.push({ index, recorded });
  }
}

export type TraceStepWithMessage = TraceStep & Partial<RecordedMessage>;

const RETRY_LOG = /^Attempt \d+ failed \(.*\); retrying\.$/s;

/**
 * Puts each snapshot on its trace entry. A command was called once per entry that has evaluated parameters,
 * plus once per retry (which the runner logs); the message is the one of the first call.
 */
export function attachMessages(trace: TraceStep[], snapshots: readonly Snapshot[]): TraceStepWithMessage[] {
  let next = 0;
  let aligned = true;
  return trace.map((entry) => {
    if (!aligned || entry.params === undefined) return entry;
    const first = snapshots[next];
    if (!first || first.index !== entry.index) {
      aligned = false;
      return entry;
    }
    next += 1 + entry.logs.filter((log) => log.level === 'WARN' && RETRY_LOG.test(log.message)).length;
    return first.recorded ? { ...entry, ...first.recorded } : entry;
  });
}

export const SEED_COMMAND = 'workbench.seed';

/** The first step of a run from a chosen step: the recorded message becomes the scope. */
export function seedCommand<S>(seed: StepMessage): CommandDefinition<S> {
  return defineCommand<S>(
    {
      name: SEED_COMMAND,
      summary: 'Restores a recorded message (workbench runs from a chosen step only).',
      parameters: {},
      input: 'any',
      output: 'any',
    },
    (ctx) => {
      Object.assign(ctx.scope.vars, seed.vars);
      Object.assign(ctx.scope.headers, seed.headers);
      return seed.body;
    },
  );
}

/**
 * The pipeline from step `fromStep` on, after a seed step. Only a top-level step can start a run (inside a
 * block the run would start without its `if` or `foreach`). Step indexes and positions stay those of the
 * whole pipeline, so traces and errors point at the same lines.
 */
export function scriptFromStep(
  script: PipelineScript,
  fromStep: number,
  roleOf: (step: PipelineStep) => ControlFlowRole | undefined,
): PipelineScript {
  if (!Number.isInteger(fromStep) || fromStep < 0 || fromStep >= script.steps.length) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `fromStep must be the index of a step (0 to ${script.steps.length - 1}), not ${String(fromStep)}.`,
      { parameter: 'fromStep' },
    );
  }
  let depth = 0;
  for (const step of script.steps.slice(0, fromStep)) {
    const role = roleOf(step);
    if (role === 'if' || role === 'foreach') depth++;
    else if (role === 'if.end' || role === 'foreach.end') depth = Math.max(0, depth - 1);
  }
  const start = script.steps[fromStep]!;
  const role = roleOf(start);
  if (depth > 0 || role === 'if.else' || role === 'if.end' || role === 'foreach.end') {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Step ${fromStep + 1} '${start.command}' is inside an if or foreach block: a run can start only at a top-level step.`,
      { parameter: 'fromStep', line: start.position?.line, column: start.position?.column },
    );
  }
  const seed: PipelineStep = { index: -1, command: SEED_COMMAND, params: {} };
  return scriptWith(script, {
    headers: {},
    vars: {},
    body: null,
    steps: [seed, ...script.steps.slice(fromStep)],
  });
}
