/**
 * Runs a stored pipeline from a running one: read as the caller (who must be allowed to read it), run as
 * the caller bound by the pipeline's author (never with more rights than whoever stored it: `readStoredCode`),
 * with the caller's body (or input) and the given vars over the pipeline's own, within the
 * caller's time limit and the nesting limit. Its final body is the result.
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError, isPipeworkError } from '../../../shared/errors';
import { containsExpression } from '../../../shared/pel';
import { scriptWith, type PipelineScript } from '../../../shared/pipeline';
import { scriptOfProperty } from '../../pipeline/stored-pipeline-script';
import type { Cancellation } from '../../../shared/runner';
import { executePipeline } from '../../pipeline/execute-pipeline';
import { readStoredCode } from '../../pipeline/stored-code-run-as';
import { startAsyncRun } from '../../runs/async-runs';
import type { ServerServices } from '../../services';
import { storedPipelineKey } from '../../../shared/uri/custom-uri';
import { MAX_PIPELINE_NESTING, nestedServices } from './nesting';

/** `$uri:property:global/...`, `$uri:pipeline:global/...`, `property:/global/...` or the key itself. */
export function keyOfReference(reference: string, parameter = 'key'): string {
  const found = storedPipelineKey(reference);
  if ('message' in found)
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}': ${found.message}.`, { parameter });
  return found.key;
}

/**
 * A value as a pipeline's `vars` section takes it without evaluating it again: text containing `#{` is
 * written as a PEL string literal (`#{'...'}`), so values never become expressions in the called pipeline.
 */
export function asLiteral(value: unknown): unknown {
  if (typeof value === 'string')
    return containsExpression(value) ? `#{'${value.replace(/'/g, "''")}'}` : value;
  if (Array.isArray(value)) return value.map(asLiteral);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asLiteral(v)]));
  }
  return value;
}

function cancellationOf(signal: AbortSignal): Cancellation {
  return {
    get cancelled() {
      return signal.aborted;
    },
    onCancel(listener) {
      signal.addEventListener('abort', listener, { once: true });
    },
  };
}

async function loadScript(
  ctx: CommandContext<ServerServices>,
  key: string,
  parameter: string,
): Promise<PipelineScript> {
  return scriptOfProperty(await ctx.services.properties.get(ctx.principal, key), parameter);
}

function storedKeyOf(reference: string, parameter: string): string {
  const key = keyOfReference(reference, parameter);
  if (key === '')
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' names no pipeline.`, { parameter });
  return key;
}

/** The stored pipeline read as the caller, with the caller's body and `vars`, and whom it runs as. */
async function preparedRun(
  ctx: CommandContext<ServerServices>,
  key: string,
  vars: Record<string, unknown>,
  parameter: string,
) {
  const { code: script, runAs } = await readStoredCode(ctx.services, ctx.principal, key, () =>
    loadScript(ctx, key, parameter),
  );
  const given = ctx.input === undefined || ctx.input === null ? script.body : ctx.input;
  const run: PipelineScript = scriptWith(script, {
    body: given,
    vars: { ...script.vars, ...(asLiteral(vars) as Record<string, unknown>) },
  });
  return { run, runAs };
}

/**
 * Starts a stored pipeline as an async run (`pipeline.start` with `async: true`): read and bound as for a run
 * in place, then queued as a recorded run of its own that outlives the calling pipeline; answers its id.
 */
export async function startStoredPipelineAsync(
  ctx: CommandContext<ServerServices>,
  reference: string,
  vars: Record<string, unknown>,
  parameter: string,
): Promise<{ runId: string }> {
  const key = storedKeyOf(reference, parameter);
  await assertAsyncChainDepth(ctx.services, key);
  const { run, runAs } = await preparedRun(ctx, key, vars, parameter);
  return startAsyncRun(ctx.services, run, {
    principal: runAs,
    trigger: { kind: 'async', source: key },
    pipelineKey: key,
  });
}

/**
 * Async runs that start async runs (a pipeline starting itself) would go on for ever, one after the other:
 * a chain of more than MAX_PIPELINE_NESTING runs started by `pipeline.start async` is refused, as nesting is.
 */
async function assertAsyncChainDepth(services: ServerServices, key: string): Promise<void> {
  await services.runs.recorder.flush();
  let id = services.run?.runId;
  for (let depth = 0; id !== undefined; depth++) {
    if (depth >= MAX_PIPELINE_NESTING) {
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `Async runs started one another more than ${MAX_PIPELINE_NESTING} deep (starting '${key}'): does a pipeline start itself?`,
        { limit: 'nesting', maxNesting: MAX_PIPELINE_NESTING, pipeline: key },
      );
    }
    const run = await services.runs.store.get(id);
    if (!run?.async || run.trigger.kind !== 'async' || run.trigger.source === undefined) return;
    id = run.parentId ?? undefined;
  }
}

export async function runStoredPipeline(
  ctx: CommandContext<ServerServices>,
  reference: string,
  vars: Record<string, unknown>,
  parameter: string,
): Promise<unknown> {
  const key = storedKeyOf(reference, parameter);
  const services = nestedServices(ctx.services, key);
  const { run, runAs } = await preparedRun(ctx, key, vars, parameter);
  try {
    const result = await executePipeline(services, run, {
      principal: runAs,
      trigger: { kind: 'pipeline', source: key },
      pipelineKey: key,
      cancellation: cancellationOf(ctx.abortSignal()),
    });
    return result.body;
  } catch (error) {
    if (!isPipeworkError(error) || error.details.limit === 'nesting') throw error;
    const where = error.details.commandName
      ? ` at step ${Number(error.details.commandIndex) + 1} '${String(error.details.commandName)}'`
      : '';
    throw new PipeworkError(error.code, `Pipeline '${key}' failed${where}: ${error.message}`, {
      pipeline: key,
      called: { ...error.details, trace: undefined },
    });
  }
}
