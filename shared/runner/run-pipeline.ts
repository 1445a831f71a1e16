/** The engine: runs a parsed pipeline step by step against a command registry, with limits and tracing. */
import type { Principal } from '../auth';
import type {
  CommandContext,
  CommandDefinition,
  LogLevel,
  PipelineScope,
} from '../commands/command-definition';
import { COMMON_PARAMETER_NAMES } from '../commands/common-parameters';
import { validateParameters } from '../commands/validate-parameters';
import { PipeworkError, isConnectionFailure, isPipeworkError } from '../errors';
import type { PelOptions } from '../pel';
import { locateInParameter, locateInSection } from '../pipeline';
import type { PipelineScript, PipelineStep } from '../pipeline/model';
import { analyzeBlocks, findFinally, type BlockMap } from './block-structure';
import { parseErrorPolicy, type ErrorPolicy } from './error-policy';
import {
  assignToTarget,
  evaluateDeep,
  evaluateExpressionValue,
  locateParameterError,
  toCondition,
} from './evaluate-values';
import { RunClock } from './run-clock';
import { DEFAULT_RUN_LIMITS, type RunLimits, type RunPipelineOptions, type RunResult } from './run-options';
import { stepDetails } from './step-details';
import { collectParams, loopEntries } from './step-params';
import { traceValue, type TraceStep } from './trace';

/** The `request` root: given as a value, or as a function so that runs without expressions never build it. */
function readRequest(request: unknown): unknown {
  return (typeof request === 'function' ? (request as () => unknown)() : request) ?? null;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Thrown by `exit` to stop the run with the current body. */
class ExitSignal {}

/** `exception` as expressions see it after an error was ignored, or in the steps after `finally`. */
function exceptionOf(error: PipeworkError): Record<string, unknown> {
  return {
    code: error.code,
    message: error.message,
    commandName: error.details.commandName,
    commandIndex: error.details.commandIndex,
  };
}

/** Runs a pipeline and resolves with its final body; rejects with a PipeworkError naming the step. */
export async function runPipeline<S>(
  script: PipelineScript,
  options: RunPipelineOptions<S>,
): Promise<RunResult> {
  return new PipelineRun(script, options).run();
}

class PipelineRun<S> {
  private readonly limits: RunLimits;
  private readonly scope: PipelineScope;
  private readonly trace: TraceStep[] | undefined;
  private readonly clock: RunClock;
  private principal: Principal | null;
  private utilitiesFor: Principal | null | undefined;
  private cachedPelOptions: PelOptions | undefined;
  private blocks: BlockMap = new Map();
  private elseOwnerEnd = new Map<number, number>();
  private stepsExecuted = 0;
  private iteration: number | undefined;
  /** Index of the `finally` step: the steps after it run at the end, after an error or `exit` too. */
  private finallyAt: number | undefined;
  /** Set by a command's `ctx.exit()` (e.g. `cache.get` with `exit: true`). */
  private exitRequested = false;

  constructor(
    private readonly script: PipelineScript,
    private readonly options: RunPipelineOptions<S>,
  ) {
    this.limits = { ...DEFAULT_RUN_LIMITS, ...options.limits };
    this.scope = {
      body: script.body ?? null,
      vars: Object.create(null) as Record<string, unknown>,
      headers: Object.create(null) as Record<string, unknown>,
      request: null,
      exception: null,
    };
    this.trace = options.trace ? [] : undefined;
    this.principal = options.principal;
    this.clock = new RunClock(this.limits.maxMillis, options.cancellation, this.limits.sliceMillis);
  }

  private readonly sliceDeadline = (): number => this.clock.sliceDeadline();

  /** The utilities are built for the current principal when an expression first needs them. */
  private get pelOptions(): PelOptions {
    if (!this.cachedPelOptions || this.utilitiesFor !== this.principal) {
      // The first expression is also when the `request` root is first needed.
      if (!this.cachedPelOptions && this.scope.request === null)
        this.scope.request = readRequest(this.options.request);
      this.cachedPelOptions = {
        utilities: this.options.utilities?.(this.principal),
        deadline: this.sliceDeadline,
      };
      this.utilitiesFor = this.principal;
    }
    return this.cachedPelOptions;
  }

  async run(): Promise<RunResult> {
    try {
      this.prepare();
      if (this.shouldRun()) await this.runMainAndFinally();
      return {
        body: this.scope.body,
        scope: this.scope,
        stepsExecuted: this.stepsExecuted,
        durationMs: Date.now() - this.clock.started,
        trace: this.trace,
      };
    } catch (error) {
      throw this.withTrace(error);
    } finally {
      this.clock.stop();
    }
  }

  /** The steps before `finally`, then (whatever happened) the steps after it; the first error is thrown. */
  private async runMainAndFinally(): Promise<void> {
    const steps = this.script.steps;
    let failure: unknown;
    try {
      await this.execRange(0, this.finallyAt ?? steps.length);
    } catch (error) {
      if (!(error instanceof ExitSignal)) failure = error;
    }
    if (this.finallyAt !== undefined) {
      if (isPipeworkError(failure)) this.scope.exception = exceptionOf(failure);
      try {
        const step = steps[this.finallyAt]!;
        const definition = this.options.registry.get(step.command)!;
        this.controlStep(step, definition, () =>
          step.params.do !== undefined || step.defaultValue !== undefined
            ? this.evaluateControlParam(step, definition, 'do')
            : undefined,
        );
        this.evalAfter(step);
        await this.execRange(this.finallyAt + 1, steps.length);
      } catch (error) {
        if (!(error instanceof ExitSignal)) failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** The common `eval` parameter: an expression evaluated after the step has done its work. */
  private evalAfter(step: PipelineStep): void {
    if (step.params.eval === undefined) return;
    this.evaluateParam(step, step.params, 'eval', evaluateExpressionValue);
  }

  /** The `runWhen` header: a condition evaluated with the headers; when false, no step runs. */
  private shouldRun(): boolean {
    const condition = this.scope.headers.runWhen;
    if (condition === undefined) return true;
    try {
      return toCondition(condition, "The header 'runWhen'");
    } catch (error) {
      const place = this.script.sectionPositions?.headers?.runWhen;
      throw isPipeworkError(error)
        ? error.withDetails({ section: 'headers', name: 'runWhen', ...place })
        : error;
    }
  }

  /** Checks every command exists and the blocks match, then evaluates headers and vars in order. */
  private prepare(): void {
    for (const step of this.script.steps) {
      if (!this.options.registry.get(step.command)) {
        throw new PipeworkError('COMMAND_NOT_FOUND', `Unknown command '${step.command}'.`, {
          commandName: step.command,
          commandIndex: step.index,
          line: step.position?.line,
          column: step.position?.column,
        });
      }
    }
    this.blocks = analyzeBlocks(this.script.steps, this.options.registry);
    this.finallyAt = findFinally(this.script.steps, this.options.registry, this.blocks);
    for (const info of this.blocks.values())
      if (info.else !== undefined) this.elseOwnerEnd.set(info.else, info.end);
    this.evaluateSection('headers', this.script.headers, this.scope.headers);
    this.evaluateSection('vars', this.script.vars, this.scope.vars);
  }

  private evaluateSection(
    section: 'headers' | 'vars',
    source: Record<string, unknown>,
    target: Record<string, unknown>,
  ) {
    for (const [name, value] of Object.entries(source)) {
      try {
        target[name] = evaluateDeep(value, this.scope, this.pelOptions);
      } catch (error) {
        if (!isPipeworkError(error)) throw error;
        // The expression's own line/column would be wrong in the pipeline: place the error in the source.
        const offset = typeof error.details.offset === 'number' ? error.details.offset : 0;
        const place = locateInSection(this.script, section, name, offset);
        throw new PipeworkError(
          error.code,
          error.message,
          { ...error.details, section, name, ...place },
          { cause: error.cause },
        );
      }
    }
  }

  private async execRange(start: number, end: number): Promise<void> {
    const steps = this.script.steps;
    let pc = start;
    while (pc < end) {
      if (this.clock.yieldDue) await this.clock.yieldNow();
      const step = steps[pc]!;
      const definition = this.options.registry.get(step.command)!;
      switch (definition.contract.controlFlow) {
        case 'if': {
          const info = this.blocks.get(pc)!;
          const holds = this.controlStep(step, definition, () =>
            toCondition(this.evaluateControlParam(step, definition, 'true'), `The condition of 'if'`),
          );
          this.evalAfter(step);
          // The `if.end` is reached from either branch, so its `eval` runs once either way.
          pc = holds ? pc + 1 : info.else !== undefined ? info.else + 1 : info.end;
          break;
        }
        case 'if.else':
          // Reached only by running the `if` branch to its end: skip the else branch, land on its `if.end`.
          this.evalAfter(step);
          pc = this.elseOwnerEnd.get(pc) ?? end;
          break;
        case 'foreach': {
          const info = this.blocks.get(pc)!;
          await this.runLoop(step, definition, pc + 1, Math.min(info.end, end));
          pc = info.end + 1;
          break;
        }
        case 'exit':
          if (step.params.if !== undefined && !this.holds(step)) {
            pc++;
            break;
          }
          this.controlStep(step, definition, () => undefined);
          this.evalAfter(step);
          throw new ExitSignal();
        case 'finally':
          // Reached only from the top level; runMainAndFinally runs what follows it.
          return;
        case 'if.end':
          this.evalAfter(step);
          pc++;
          break;
        case 'foreach.end':
          pc++;
          break;
        default:
          await this.execStep(step, definition);
          pc++;
      }
    }
  }

  /** A control step's `if` parameter. */
  private holds(step: PipelineStep): boolean {
    return toCondition(
      this.evaluateParam(step, step.params, 'if', evaluateExpressionValue),
      `'if' of '${step.command}'`,
    );
  }

  /** Counts, traces and authorizes a control-flow step, whose work is `work`. */
  private controlStep<T>(step: PipelineStep, definition: CommandDefinition<S>, work: () => T): T {
    this.tick(step);
    this.authorize(step, definition);
    const started = Date.now();
    const result = work();
    this.trace?.push({
      index: step.index,
      command: step.command,
      iteration: this.iteration,
      output: traceValue(result),
      durationMs: Date.now() - started,
      logs: [],
    });
    return result;
  }

  private evaluateControlParam(step: PipelineStep, definition: CommandDefinition<S>, name: string): unknown {
    const fromDefault = step.defaultValue !== undefined && definition.contract.defaultParameter === name;
    const raw = fromDefault ? step.defaultValue : step.params[name];
    if (raw === undefined) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `Missing required parameter '${name}' for command '${step.command}'.`,
        {
          commandName: step.command,
          commandIndex: step.index,
          parameter: name,
          line: step.position?.line,
          column: step.position?.column,
        },
      );
    }
    try {
      return evaluateExpressionValue(raw, this.scope, this.pelOptions);
    } catch (error) {
      throw locateParameterError(error, step, name, fromDefault ? '' : name);
    }
  }

  private async runLoop(
    step: PipelineStep,
    definition: CommandDefinition<S>,
    bodyStart: number,
    bodyEnd: number,
  ) {
    const items = this.controlStep(step, definition, () => this.evaluateControlParam(step, definition, 'in'));
    const as = typeof step.params.as === 'string' && step.params.as !== '' ? step.params.as : 'item';
    const entries = loopEntries(items);
    const outer = this.iteration;
    try {
      for (let index = 0; index < entries.length; index++) {
        const { item, key } = entries[index]!;
        this.scope.vars[as] = item;
        this.scope.vars.loop = { index, item, ...(key !== undefined ? { key } : {}), size: entries.length };
        this.iteration = index;
        this.evalAfter(step);
        await this.execRange(bodyStart, bodyEnd);
        const closer = this.script.steps[bodyEnd];
        if (closer && this.options.registry.get(closer.command)?.contract.controlFlow === 'foreach.end')
          this.evalAfter(closer);
      }
    } finally {
      this.iteration = outer;
    }
  }

  /** Guards every executed step: the step count, the wall-time limit and the caller going away. */
  private tick(step: PipelineStep): void {
    this.stepsExecuted++;
    if (this.stepsExecuted > this.limits.maxSteps) {
      throw new PipeworkError('LIMIT_EXCEEDED', `The pipeline ran more than ${this.limits.maxSteps} steps.`, {
        limit: 'steps',
        ...stepDetails(step),
      });
    }
    this.clock.check(() => stepDetails(step));
  }

  private authorize(step: PipelineStep, definition: CommandDefinition<S>): void {
    try {
      this.options.authorize?.(this.principal, definition.contract);
    } catch (error) {
      throw isPipeworkError(error) ? error.withDetails(stepDetails(step)) : error;
    }
  }

  private async execStep(step: PipelineStep, definition: CommandDefinition<S>): Promise<void> {
    this.tick(step);
    const { contract } = definition;
    this.authorize(step, definition);
    const traced: TraceStep | undefined = this.trace
      ? { index: step.index, command: step.command, iteration: this.iteration, durationMs: 0, logs: [] }
      : undefined;
    if (traced) this.trace!.push(traced);
    const started = Date.now();
    const params = collectParams(step, contract);
    try {
      if (params.if !== undefined) {
        const runIt = toCondition(
          this.evaluateParam(step, params, 'if', evaluateExpressionValue),
          `'if' of '${step.command}'`,
        );
        if (!runIt) {
          if (traced) traced.skipped = true;
          return;
        }
      }
      if (this.options.prepareStep) {
        const clock = this.clock;
        // Undefined when the step has nothing to prepare: no await, no turn of the event loop.
        const preparing = this.options.prepareStep(step, params, {
          principal: this.principal,
          body: this.scope.body,
          // Made on first use: most steps prefetch nothing and never need one.
          get signal() {
            return clock.signal;
          },
        });
        if (preparing) await preparing;
      }
      const policy = this.policyFor(step, params);
      await this.attempt(step, definition, params, policy, traced);
      if (this.exitRequested) throw new ExitSignal();
    } finally {
      if (traced) traced.durationMs = Date.now() - started;
    }
  }

  private evaluateParam(
    step: PipelineStep,
    params: Record<string, unknown>,
    name: string,
    evaluate: (value: unknown, scope: PipelineScope, options: PelOptions) => unknown,
  ): unknown {
    try {
      return evaluate(params[name], this.scope, this.pelOptions);
    } catch (error) {
      const positionKey = name in step.params ? name : '';
      throw locateParameterError(error, step, name, positionKey);
    }
  }

  private policyFor(step: PipelineStep, params: Record<string, unknown>): ErrorPolicy {
    const text = params.onError ?? this.scope.headers.onError ?? this.scope.headers.onCommandError;
    try {
      return parseErrorPolicy(text);
    } catch (error) {
      throw isPipeworkError(error) ? error.withDetails(stepDetails(step)) : error;
    }
  }

  private async attempt(
    step: PipelineStep,
    definition: CommandDefinition<S>,
    params: Record<string, unknown>,
    policy: ErrorPolicy,
    traced: TraceStep | undefined,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.invoke(step, definition, params, traced);
        return;
      } catch (raw) {
        const error = this.asStepError(raw, step);
        // The trace shows which step failed, also when the failure ends the run.
        const failed = () => {
          if (traced) traced.error = { code: error.code, message: error.message };
          return error;
        };
        if (error.code === 'LIMIT_EXCEEDED' || error.code === 'FORBIDDEN') throw failed();
        if (attempt < policy.retries) {
          this.log(
            step,
            traced,
            'WARN',
            `Attempt ${attempt + 1} failed (${error.code}: ${error.message}); retrying.`,
          );
          await this.clock.sleep(policy.waitSeconds * 1000, () => stepDetails(step));
          continue;
        }
        if (policy.then === 'THROW') throw failed();
        this.scope.exception = exceptionOf(error);
        failed();
        this.log(
          step,
          traced,
          policy.then === 'LOG' ? 'ERROR' : 'WARN',
          `${error.code}: ${error.message} (${policy.then})`,
        );
        return;
      }
    }
  }

  private async invoke(
    step: PipelineStep,
    definition: CommandDefinition<S>,
    params: Record<string, unknown>,
    traced: TraceStep | undefined,
  ): Promise<void> {
    const { contract } = definition;
    const raw = contract.rawParameters;
    const given: Record<string, unknown> = {};
    for (const name of Object.keys(params)) {
      if (COMMON_PARAMETER_NAMES.has(name)) continue;
      given[name] = raw?.includes(name) ? params[name] : this.evaluateParam(step, params, name, evaluateDeep);
    }
    const input =
      params.input !== undefined ? this.evaluateParam(step, params, 'input', evaluateDeep) : this.scope.body;
    let validated: Record<string, unknown>;
    try {
      validated = validateParameters(contract, given);
    } catch (error) {
      const parameter = isPipeworkError(error) ? (error.details.parameter as string | undefined) : undefined;
      throw locateParameterError(
        error,
        step,
        parameter,
        parameter && parameter in step.params ? parameter : '',
      );
    }
    if (traced) {
      traced.params = traceValue(validated) as Record<string, unknown>;
      traced.input = traceValue(input);
    }
    const context: CommandContext<S> = {
      params: validated,
      rawParams: params,
      input,
      scope: this.scope,
      principal: this.principal,
      setPrincipal: (principal) => {
        this.principal = principal;
      },
      services: this.options.services,
      commands: this.options.registry,
      log: (level, message) => this.log(step, traced, level, message),
      evaluate: (expression) => evaluateExpressionValue(expression, this.scope, this.pelOptions),
      abortSignal: () => this.clock.signal,
      step: { index: step.index, command: step.command },
      exit: () => {
        this.exitRequested = true;
      },
    };
    const returned = definition.run(context);
    const result = isThenable(returned)
      ? await this.clock.race(Promise.resolve(returned), () => stepDetails(step))
      : returned;
    if (traced) traced.output = traceValue(result);
    if (typeof params.output === 'string' && params.output !== '') {
      try {
        assignToTarget(params.output, result ?? null, this.scope, this.pelOptions);
      } catch (error) {
        throw locateParameterError(error, step, 'output');
      }
    } else if (result !== undefined && contract.output !== 'none') {
      this.scope.body = result;
    }
    if (params.eval !== undefined) this.evaluateParam(step, params, 'eval', evaluateExpressionValue);
  }

  private asStepError(error: unknown, step: PipelineStep): PipeworkError {
    if (isPipeworkError(error)) return error.withDetails(placeInParameter(error, step) ?? stepDetails(step));
    if (isConnectionFailure(error)) {
      return new PipeworkError(
        'UNAVAILABLE',
        `Command '${step.command}' could not reach the database; try again shortly.`,
        { ...stepDetails(step), retryAfterSeconds: 5 },
        { cause: error as Error },
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return new PipeworkError(
      'INTERNAL',
      `Command '${step.command}' failed unexpectedly.`,
      stepDetails(step),
      {
        cause: error instanceof Error ? error : new Error(message),
      },
    );
  }

  private log(step: PipelineStep, traced: TraceStep | undefined, level: LogLevel, message: string): void {
    traced?.logs.push({ level, message });
    this.options.onLog?.({ level, message, commandName: step.command, commandIndex: step.index });
  }

  /** Attaches the trace recorded so far to a failing run's error, so the client can see how far it got. */
  private withTrace(error: unknown): unknown {
    if (this.trace && isPipeworkError(error)) return error.withDetails({ trace: this.trace });
    return error;
  }
}

/**
 * A command's error that names a place inside one of its parameters as written (`parameter` and
 * `parameterOffset`, e.g. a PEL error in a `transform` template) gets that place's line and column.
 */
function placeInParameter(error: PipeworkError, step: PipelineStep): Record<string, unknown> | undefined {
  const { parameter, parameterOffset } = error.details;
  if (typeof parameter !== 'string' || typeof parameterOffset !== 'number') return undefined;
  const key = parameter in step.params ? parameter : '';
  const place = locateInParameter(step, key, parameterOffset);
  if (!place) return undefined;
  return { ...stepDetails(step), line: place.line, column: place.column };
}
