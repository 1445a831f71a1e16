/**
 * Re-runs: a new async run of a recorded run's pipeline, as the user who asks (their rights: the stored
 * pipeline is read as them, every step's permission checked as them), with the recorded input; or from the
 * failed step on, with the message that step saw. A stored pipeline is read again, so a fix made since is
 * what runs; an inline run repeats its recorded text unless a corrected text is given.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { scriptWith, type PipelineScript } from '../../shared/pipeline';
import { asLiteral } from '../commands/flow/run-stored-pipeline';
import { authorizeCommand } from '../pipeline/authorize-command';
import { parsePipelineCached } from '../pipeline/parsed-pipelines';
import { scriptFromStep } from '../pipeline/step-messages';
import type { ServerServices } from '../services';
import { startAsyncRun } from './async-runs';
import type { RunDetail } from './run-records';
import type { RunTriggerKind } from './run-trigger';

export interface RerunRequest {
  /** Start at the failed step with the message it saw, instead of from the start. */
  fromFailedStep?: boolean;
  /** A corrected text for an inline run (the workbench sends the editor's text). */
  pipeline?: string;
  form?: 'yaml' | 'json' | 'uri';
  /** How the re-run was asked for (`workbench`, `cli`, `http`). */
  trigger?: RunTriggerKind;
}

async function scriptOf(
  services: ServerServices,
  principal: Principal,
  run: RunDetail,
  request: RerunRequest,
): Promise<{ script: PipelineScript; source?: RunDetail['source']; runAs?: Principal | null }> {
  if (request.pipeline !== undefined) {
    const source = { text: request.pipeline, form: request.form ?? 'yaml' };
    return { script: parsePipelineCached(source.text, source.form), source };
  }
  // A workbench run ran the editor's text (perhaps not saved): that text is what it repeats.
  if (run.trigger.kind === 'workbench' && run.source !== null) {
    return { script: parsePipelineCached(run.source.text, run.source.form), source: run.source };
  }
  if (run.pipelineKey !== null) {
    // The stored text as it is now, run as `pipeline.start` runs it: bound by whoever wrote it last.
    const { script, runAs } = await services.storedPipelines.load(principal, run.pipelineKey);
    return { script, runAs };
  }
  if (run.source === null) {
    throw new PipeworkError(
      'CONFLICT',
      `Run '${run.id}' cannot be repeated: its pipeline text was not kept.`,
      {
        runId: run.id,
      },
    );
  }
  return { script: parsePipelineCached(run.source.text, run.source.form), source: run.source };
}

/** Starts the re-run and returns its id. */
export async function rerun(
  services: ServerServices,
  principal: Principal,
  id: string,
  request: RerunRequest,
): Promise<{ runId: string }> {
  const run = await services.runs.get(principal, id);
  const { script, source, runAs } = await scriptOf(services, principal, run, request);
  const runner = runAs ?? principal;
  let toRun: PipelineScript = scriptWith(script, { body: run.input ?? script.body });
  if (request.fromFailedStep) {
    const resume = run.resume;
    if (run.status !== 'failed' || !resume) {
      throw new PipeworkError('CONFLICT', `Run '${run.id}' has no failed step to start from.`, {
        runId: run.id,
      });
    }
    if (!resume.exact) {
      throw new PipeworkError(
        'CONFLICT',
        `The message step ${resume.stepIndex + 1} saw in run '${run.id}' was too large or held bytes: re-run it from the start.`,
        { runId: run.id },
      );
    }
    // Validates the step (a top-level one, inside the pipeline); the seed step it adds is not needed here.
    const from = scriptFromStep(
      script,
      resume.stepIndex,
      (s) => services.commands.get(s.command)?.contract.controlFlow,
    );
    toRun = scriptWith(script, {
      headers: asLiteral(resume.message.headers) as Record<string, unknown>,
      vars: asLiteral(resume.message.vars) as Record<string, unknown>,
      body: resume.message.body,
      steps: from.steps.slice(1),
    });
  }
  // A clear refusal now rather than a failed run later: the user must be allowed every command in it.
  for (const step of toRun.steps) {
    const definition = services.commands.get(step.command);
    if (definition) authorizeCommand(runner, definition.contract);
  }
  return startAsyncRun(services, toRun, {
    principal: runner,
    trigger: { kind: request.trigger ?? 'async', source: `rerun:${run.id}` },
    pipelineKey: run.pipelineKey ?? undefined,
    parentRunId: run.id,
    source: source ?? undefined,
  });
}
