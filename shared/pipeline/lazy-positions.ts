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

/**
 * The scripts whose position fields are lazy: only those need their getters kept when copied. A set, not a
 * marker property: defining a hidden property on every run's copy showed in the profile.
 */
const lazyScripts = new WeakSet<object>();

function lazyField<T extends object>(target: T, name: keyof T & string, compute: () => unknown): void {
  const settle = (on: object, value: unknown) =>
    Object.defineProperty(on, name, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const value = compute();
      settle(this, value);
      return value;
    },
    set(this: object, value: unknown) {
      settle(this, value);
    },
  });
}

const STEP_FIELDS = ['position', 'paramPositions', 'paramSources'] as const;
const SCRIPT_FIELDS = ['sectionPositions', 'sectionSources'] as const;
const LAZY_SCRIPT_FIELDS = new Set<string>(SCRIPT_FIELDS);

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
  lazyScripts.add(script);
  for (const name of SCRIPT_FIELDS) lazyField(script, name, () => source()?.[name]);
  script.steps.forEach((step: PipelineStep, index) => {
    for (const name of STEP_FIELDS) lazyField(step, name, () => source()?.steps[index]?.[name]);
  });
  return script;
}

/** A copy of `script` with `changes`, its lazy position fields kept unread (unlike `{ ...script }`). */
export function scriptWith(script: PipelineScript, changes: Partial<PipelineScript>): PipelineScript {
  if (!lazyScripts.has(script)) return { ...script, ...changes };
  // Field by field: a copy of all descriptors at once would be a slow dictionary object (and 4× the work).
  const copy: Record<string, unknown> = {};
  lazyScripts.add(copy);
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
