/**
 * The shared validator, run before any step of every run on the server (HTTP, stored pipelines,
 * `pipeline.start`/`call`, listeners): a pipeline with a mistake anywhere writes nothing and answers with all
 * of its errors at once. Cheap on the hot path: the steps' result is kept per parsed steps list (the parsed
 * script cache hands every run of a text the same one) and the sections' per headers and vars objects. A
 * new text whose steps are written as an earlier one's were (the data in `body:` changes with each request)
 * is known clean by its steps' content: only a clean result is kept that way, since problems carry their
 * places in the text.
 */
import type { Principal } from '../../shared/auth';
import type { CommandContract } from '../../shared/commands';
import { checkExpression } from '../../shared/commands/core/schema';
import { isPipeworkError, type PipeworkError } from '../../shared/errors';
import { LruCache } from '../../shared/values/lru-cache';
import {
  problemsError,
  scriptWith,
  validateScript,
  type CommandLookup,
  type PipelineProblem,
  type PipelineScript,
} from '../../shared/pipeline';

type ByObject = WeakMap<object, PipelineProblem[]>;

interface Caches {
  steps: ByObject;
  sections: ByObject;
  /** The content of steps lists found clean (`contentOf`). */
  cleanSteps: LruCache<true>;
}

/** Per registry (a test run's registry with its mocks is another one), then per steps list or section object. */
const checked = new WeakMap<CommandLookup, Caches>();

/** How many clean steps lists are known by content, and how many characters of content they may add up to. */
const CLEAN_STEPS = { entries: 1000, characters: 2_000_000 } as const;

const NO_STEPS: PipelineScript['steps'] = [];
const NO_PROBLEMS: PipelineProblem[] = [];

/** What validation reads of a steps list: each step's command, parameters and short-form value, in order. */
function contentOf(script: PipelineScript): string | undefined {
  try {
    return `${script.source}:${JSON.stringify(script.steps.map((s) => [s.command, s.params, s.defaultValue]))}`;
  } catch {
    return undefined; // not JSON (never from a parser): validated as it is, every time
  }
}

/** How many steps lists were validated in this process (tests guard the caches with it). */
let validated = 0;

export function validatedStepLists(): number {
  return validated;
}

function stepProblems(script: PipelineScript, commands: CommandLookup, caches: Caches): PipelineProblem[] {
  let problems = caches.steps.get(script.steps);
  if (!problems) {
    const content = contentOf(script);
    if (content !== undefined && caches.cleanSteps.get(content)) {
      problems = NO_PROBLEMS;
    } else {
      validated++;
      problems = validateScript(scriptWith(script, { headers: {}, vars: {} }), commands, { checkExpression });
      if (content !== undefined && problems.length === 0)
        caches.cleanSteps.set(content, true, content.length);
    }
    caches.steps.set(script.steps, problems);
  }
  return problems;
}

function sectionProblems(
  script: PipelineScript,
  section: 'headers' | 'vars',
  commands: CommandLookup,
  cache: ByObject,
): PipelineProblem[] {
  const values = script[section];
  if (Object.keys(values).length === 0) return [];
  let problems = cache.get(values);
  if (!problems) {
    const only = scriptWith(script, { steps: NO_STEPS, headers: {}, vars: {}, [section]: values });
    problems = validateScript(only, commands, { checkExpression });
    cache.set(values, problems);
  }
  return problems;
}

function byPosition(a: PipelineProblem, b: PipelineProblem): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? Infinity) - (b.column ?? Infinity);
}

/** Every problem the validator finds in a parsed script, computed once per steps list and section. */
export function problemsBeforeRun(script: PipelineScript, commands: CommandLookup): PipelineProblem[] {
  let caches = checked.get(commands);
  if (!caches) {
    caches = {
      steps: new WeakMap(),
      sections: new WeakMap(),
      cleanSteps: new LruCache(CLEAN_STEPS.entries, CLEAN_STEPS.characters),
    };
    checked.set(commands, caches);
  }
  const steps = stepProblems(script, commands, caches);
  const headers = sectionProblems(script, 'headers', commands, caches.sections);
  const vars = sectionProblems(script, 'vars', commands, caches.sections);
  if (headers.length === 0 && vars.length === 0) return steps;
  return [...steps, ...headers, ...vars].sort(byPosition);
}

/** The run's per-step permission check, as the runner would apply it. */
export type AuthorizeStep = (principal: Principal | null, contract: CommandContract) => void;

/**
 * The error that stops a run before its first step (every error found, in `details.problems`), or null. With
 * the caller's permission check: a caller who may not run the command of the first broken step is told that
 * (403), as the run would have told them at that step, rather than how to call a command they may not use.
 */
export function errorBeforeRun(
  script: PipelineScript,
  commands: CommandLookup,
  caller?: { principal: Principal | null; authorize: AuthorizeStep },
): PipeworkError | null {
  const refused = problemsError(problemsBeforeRun(script, commands));
  if (!refused || !caller) return refused;
  const name = refused.details.commandName;
  const contract = typeof name === 'string' ? commands.get(name)?.contract : undefined;
  if (!contract) return refused;
  try {
    caller.authorize(caller.principal, contract);
  } catch (error) {
    if (isPipeworkError(error)) return error;
    throw error;
  }
  return refused;
}
