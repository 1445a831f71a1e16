/**
 * Pins: a step's recorded output kept on a stored pipeline and used instead of running that step, in the
 * workbench's runs only (docs/runs.md). The pins of `<app>/pipeline/<name>` live in one JSON property beside
 * it, `<app>/pin/<name>`, so the property rules decide who may read and change them, on both databases.
 */
import type { Principal } from '../../shared/auth';
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import type { PipelineScript } from '../../shared/pipeline';
import { appFolderOf, isAppPipelineKey, normalizePropertyKey } from '../../shared/property';
import type { TraceStep } from '../../shared/runner/trace';
import type { Pin, PipelinePins } from '../../shared/api';
import type { ServerServices } from '../services';

export type { Pin, PipelinePins };

/** More pins than this on one pipeline are refused (each may hold a 16 KB output). */
const MAX_PINS = 100;
const JSON_TYPE = 'application/json';

/** The property that holds the pins of a stored pipeline; refuses keys outside an app's pipelines. */
export function pinsKeyOf(pipelineKey: string): string {
  const key = normalizePropertyKey(pipelineKey);
  const app = appFolderOf(key);
  if (!app || !isAppPipelineKey(key)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Only a pipeline stored in an app (<app>/pipeline/<name>) can have pins, not '${key}'.`,
      { parameter: 'pipeline' },
    );
  }
  return [app.folder, 'pin', ...app.path.slice(1)].join('/');
}

function isPin(value: unknown): value is Pin {
  const pin = value as Partial<Pin> | null;
  return (
    typeof pin === 'object' &&
    pin !== null &&
    Number.isInteger(pin.stepIndex) &&
    typeof pin.command === 'string' &&
    typeof pin.runId === 'string'
  );
}

function pinsOfValue(value: string | null): Pin[] {
  try {
    const parsed = JSON.parse(value ?? '{}') as { pins?: unknown };
    return Array.isArray(parsed.pins) ? parsed.pins.filter(isPin) : [];
  } catch {
    return [];
  }
}

async function readPins(
  services: ServerServices,
  principal: Principal,
  pinsKey: string,
): Promise<{ pins: Pin[]; version?: number }> {
  try {
    const property = await services.properties.get(principal, pinsKey);
    return { pins: pinsOfValue(property.value), version: property.version };
  } catch (error) {
    if (isPipeworkError(error) && error.code === 'PROPERTY_NOT_FOUND') return { pins: [] };
    throw error;
  }
}

async function writePins(
  services: ServerServices,
  principal: Principal,
  pinsKey: string,
  pins: Pin[],
  version: number | undefined,
): Promise<void> {
  const value = JSON.stringify({ pins });
  if (version === undefined) {
    await services.properties.create(principal, { key: pinsKey, value, type: JSON_TYPE }, 'error');
  } else {
    await services.properties.put(principal, { key: pinsKey, value, version });
  }
}

/** The pins of a pipeline the caller may read (none yet: an empty list). */
export async function listPins(
  services: ServerServices,
  principal: Principal,
  pipelineKey: string,
): Promise<PipelinePins> {
  const key = normalizePropertyKey(pipelineKey);
  await services.properties.get(principal, key); // the pipeline itself must be readable
  return { pipelineKey: key, pins: (await readPins(services, principal, pinsKeyOf(key))).pins };
}

/** A value the trace cut or replaced by a description: it cannot stand in for the real output. */
function isStandIn(value: unknown): boolean {
  if (typeof value === 'string') return /… \(\d+ characters\)$/.test(value);
  if (value === null || typeof value !== 'object') return false;
  const marks = value as Record<string, unknown>;
  return marks.$truncated === true || marks.$binary === true || marks.$unserializable !== undefined;
}

/** The step of a recorded run whose output can be pinned, or a clear refusal. */
function pinnableStep(steps: TraceStep[] | null, runId: string, stepIndex: number): TraceStep {
  const entries = (steps ?? []).filter((entry) => entry.index === stepIndex);
  const step = entries[0];
  if (!step || step.params === undefined || step.skipped) {
    throw new PipeworkError('CONFLICT', `Run '${runId}' has no recorded output of step ${stepIndex + 1}.`, {
      runId,
      stepIndex,
    });
  }
  if (entries.length > 1 || step.iteration !== undefined) {
    throw new PipeworkError(
      'CONFLICT',
      `Step ${stepIndex + 1} ran more than once (inside a foreach): one output cannot stand for it.`,
      { runId, stepIndex },
    );
  }
  if (step.error) {
    throw new PipeworkError('CONFLICT', `Step ${stepIndex + 1} failed in run '${runId}': nothing to pin.`, {
      runId,
      stepIndex,
    });
  }
  if (isStandIn(step.output)) {
    throw new PipeworkError(
      'CONFLICT',
      `The output of step ${stepIndex + 1} was recorded cut or as bytes: it cannot be pinned.`,
      { runId, stepIndex },
    );
  }
  return step;
}

/** Pins the output step `stepIndex` gave in run `runId` on `pipelineKey` (the run's key by default). */
export async function pinStep(
  services: ServerServices,
  principal: Principal,
  runId: string,
  request: { stepIndex: number; pipeline?: string },
): Promise<PipelinePins> {
  const run = await services.runs.get(principal, runId);
  const pipelineKey = normalizePropertyKey(request.pipeline ?? run.pipelineKey ?? '');
  if (run.pipelineKey !== null && run.pipelineKey !== pipelineKey) {
    throw new PipeworkError('PARAM_INVALID', `Run '${runId}' is a run of '${run.pipelineKey}'.`, {
      parameter: 'pipeline',
    });
  }
  const pinsKey = pinsKeyOf(pipelineKey);
  await services.properties.get(principal, pipelineKey);
  const step = pinnableStep(run.steps, runId, request.stepIndex);
  const current = await readPins(services, principal, pinsKey);
  const others = current.pins.filter((pin) => pin.stepIndex !== step.index);
  if (others.length >= MAX_PINS) {
    throw new PipeworkError('LIMIT_EXCEEDED', `A pipeline may have ${MAX_PINS} pins at most.`, {
      limit: 'pins',
    });
  }
  const pin: Pin = {
    stepIndex: step.index,
    command: step.command,
    ...(step.output === undefined ? {} : { output: step.output }),
    runId,
    pinnedAt: Date.now(),
    pinnedBy: principal.username ?? null,
  };
  const pins = [...others, pin].sort((a, b) => a.stepIndex - b.stepIndex);
  await writePins(services, principal, pinsKey, pins, current.version);
  return { pipelineKey, pins };
}

/** Removes the pin of step `stepIndex` (nothing to remove is not an error). */
export async function unpinStep(
  services: ServerServices,
  principal: Principal,
  pipelineKey: string,
  stepIndex: number,
): Promise<PipelinePins> {
  const key = normalizePropertyKey(pipelineKey);
  const pinsKey = pinsKeyOf(key);
  const current = await readPins(services, principal, pinsKey);
  const pins = current.pins.filter((pin) => pin.stepIndex !== stepIndex);
  if (pins.length !== current.pins.length)
    await writePins(services, principal, pinsKey, pins, current.version);
  return { pipelineKey: key, pins };
}

/** The pins that fit a script: the step at the pin's index is still the pinned command. */
export function pinsForScript(script: PipelineScript, pins: readonly Pin[]): Map<number, Pin> {
  const fitting = new Map<number, Pin>();
  for (const pin of pins) {
    if (script.steps.find((step) => step.index === pin.stepIndex)?.command === pin.command) {
      fitting.set(pin.stepIndex, pin);
    }
  }
  return fitting;
}

/** The pins a workbench run asked for: none when the pipeline or its pins cannot be read by the caller. */
export async function pinsForRun(
  services: ServerServices,
  principal: Principal,
  pipelineKey: string,
): Promise<Pin[]> {
  try {
    return (await listPins(services, principal, pipelineKey)).pins;
  } catch (error) {
    if (isPipeworkError(error)) return [];
    throw error;
  }
}
