/**
 * Source positions computed when first read. A pipeline read by the fast YAML reader has no positions; most
 * runs never need one (they are read for an error, a trace's place, the editor's markers). The position
 * fields become getters that read the text again, once, with the careful reader and take its answer.
 *
 * A copy made with object spread or structuredClone reads every getter, and with them the whole text again:
 * copy a script with `scriptWith`, which keeps the getters unread.
 */
import type { PipelineScript, PipelineStep } from './model';

/** Texts read again for their positions, in this process (see `locatedTexts`). */
let located = 0;

const STEP_FIELDS = ['position', 'paramPositions', 'paramSources'] as const;
const SCRIPT_FIELDS = ['sectionPositions', 'sectionSources'] as const;
const LAZY_SCRIPT_FIELDS = new Set<string>(SCRIPT_FIELDS);

/**
 * Where a lazy script's or step's fields come from: the careful reading of its text, and its step's index. A
 * script found here has lazy fields, which a copy must keep as getters (a map, not a marker property: defining
 * a hidden property on every run's copy showed in the profile).
 */
interface Origin {
  source: () => PipelineScript | null;
  index: number;
}

const origins = new WeakMap<object, Origin>();

function settle(on: object, name: string, value: unknown): void {
  Object.defineProperty(on, name, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * One lazy field's getter and setter, shared by every object that has the field (`this` finds its origin):
 * no functions are made per script or step.
 */
function lazyDescriptor(
  name: string,
  read: (full: PipelineScript, index: number) => unknown,
): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const origin = origins.get(this);
      const full = origin?.source();
      const value = full ? read(full, origin!.index) : undefined;
      settle(this, name, value);
      return value;
    },
    set(this: object, value: unknown) {
      settle(this, name, value);
    },
  };
}

const STEP_DESCRIPTORS: PropertyDescriptorMap = Object.fromEntries(
  STEP_FIELDS.map((name) => [name, lazyDescriptor(name, (full, index) => full.steps[index]?.[name])]),
);
const SCRIPT_DESCRIPTORS: PropertyDescriptorMap = Object.fromEntries(
  SCRIPT_FIELDS.map((name) => [name, lazyDescriptor(name, (full) => full[name])]),
);

/**
 * Makes the position fields of `script` (read without positions) lazy: the first one read calls `locate`,
 * which reads the same text with positions; an error there leaves the fields undefined.
 */
export function withLazyPositions(script: PipelineScript, locate: () => PipelineScript): PipelineScript {
  let full: PipelineScript | null | undefined;
  const source = (): PipelineScript | null => {
    if (full === undefined) {
      located++;
      try {
        full = locate();
      } catch {
        full = null;
      }
    }
    return full;
  };
  origins.set(script, { source, index: -1 });
  Object.defineProperties(script, SCRIPT_DESCRIPTORS);
  script.steps.forEach((step: PipelineStep, index) => {
    origins.set(step, { source, index });
    Object.defineProperties(step, STEP_DESCRIPTORS);
  });
  return script;
}

/** A copy of `script` with `changes`, its lazy position fields kept unread (unlike `{ ...script }`). */
export function scriptWith(script: PipelineScript, changes: Partial<PipelineScript>): PipelineScript {
  const origin = origins.get(script);
  if (!origin) return { ...script, ...changes };
  // Field by field: a copy of all descriptors at once would be a slow dictionary object (and 4× the work).
  const copy: Record<string, unknown> = {};
  origins.set(copy, origin);
  for (const key of Object.keys(script)) {
    const lazy = LAZY_SCRIPT_FIELDS.has(key) ? Object.getOwnPropertyDescriptor(script, key) : undefined;
    if (lazy?.get) Object.defineProperty(copy, key, lazy);
    else copy[key] = script[key as keyof PipelineScript];
  }
  return Object.assign(copy, changes) as PipelineScript;
}

/** How many texts were read again for their positions (tests guard the fast path with it). */
export function locatedTexts(): number {
  return located;
}
