/**
 * PEL is synchronous, but `@resolve.uri('$uri:pipeline:...')` runs a pipeline and an http(s) address waits for
 * the network. Before a step runs, the URIs of those forms written as text inside its expressions are resolved
 * here (as the caller, through the same resolver as commands) and kept for the step's expressions
 * (`pel-uri-resolver.ts` reads them); a URI computed at run time is refused there with a pointer to `resolve`.
 */
import type { CommandContext } from '../../shared/commands';
import { containsExpression } from '../../shared/pel';
import type { PipelineStep } from '../../shared/pipeline';
import type { PreparingRun } from '../../shared/runner';
import { parseCustomUri } from '../../shared/uri/custom-uri';
import type { ServerServices } from '../services';
import { resolveParsedUri } from './resolve-uri';

/** At most this many such URIs per step. */
const MAX_PER_STEP = 10;

/**
 * A quoted pipeline URI or http(s) address given as the first argument of a utility that resolves URIs
 * (`@resolve.uri('...')`, `@uri.resolve(...)`, `@convert.lazy(...)`, `@content.*(...)`). Only those are
 * fetched: any other text that merely looks like an address (a URL template, a message) is never called.
 */
const QUOTED =
  /@(?:resolve|uri|convert|content)\s*\.\s*\w+\s*\(\s*(['"])((?:\$?uri:pipeline:|https?:\/\/)[^'"#]*)\1/g;

function expressionTexts(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') {
    if (containsExpression(value)) out.push(value);
  } else if (Array.isArray(value)) value.forEach((v) => expressionTexts(v, out));
  else if (value !== null && typeof value === 'object')
    Object.values(value).forEach((v) => expressionTexts(v, out));
  return out;
}

/**
 * The pipeline URIs and addresses a step gives to resolving utilities. A step's parameters never change, so
 * they are read once per step, not on every run of it (`foreach` runs one step many times).
 */
const urisOfStep = new WeakMap<PipelineStep, string[]>();

/** Whether an expression may hold such a URI: a plain substring search first, the pattern only then. */
function mayHoldUri(text: string): boolean {
  return text.includes('uri:pipeline:') || text.includes('http');
}

function urisOf(step: PipelineStep, params: Record<string, unknown>): string[] {
  let uris = urisOfStep.get(step);
  if (!uris) {
    uris = expressionTexts(params, [])
      .filter(mayHoldUri)
      .flatMap((text) => [...text.matchAll(QUOTED)].map((m) => m[2]!));
    urisOfStep.set(step, uris);
  }
  return uris;
}

/** A `prepareStep` for the runner that fills `prefetched` (cleared per step). */
export function uriPrefetcher(services: ServerServices, prefetched: Map<string, unknown>) {
  return (step: PipelineStep, params: Record<string, unknown>, run: PreparingRun) => {
    prefetched.clear();
    const uris = urisOf(step, params);
    return uris.length === 0 ? undefined : prefetch(services, prefetched, step, uris, run);
  };
}

async function prefetch(
  services: ServerServices,
  prefetched: Map<string, unknown>,
  step: PipelineStep,
  uris: string[],
  run: PreparingRun,
): Promise<void> {
  const ctx = {
    services,
    principal: run.principal,
    input: run.body,
    abortSignal: () => run.signal,
    step: { index: step.index, command: step.command },
  } as unknown as CommandContext<ServerServices>;
  for (const text of uris) {
    const parsed = parseCustomUri(text);
    if (!parsed.ok || (parsed.uri.scheme !== 'pipeline' && parsed.uri.scheme !== 'http')) continue;
    const id = parsed.uri.scheme === 'pipeline' ? `pipeline:${parsed.uri.key}` : `http:${parsed.uri.url}`;
    if (prefetched.has(id) || prefetched.size >= MAX_PER_STEP) continue;
    prefetched.set(id, await resolveParsedUri(ctx, parsed.uri, 'uri'));
  }
}
