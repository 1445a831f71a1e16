/** The guardrails of PEL: how long, deep, large and slow an expression may be. */

export interface PelLimits {
  /** Characters in one template or expression text. */
  maxExpressionLength: number;
  /** Nesting depth of the syntax tree (operators, calls, brackets, chained steps). */
  maxDepth: number;
  /** Characters in a string that an expression builds (concatenation, repeat, replace, join, templates). */
  maxStringLength: number;
  /** Items in a list or map that an expression builds (inline lists, add, split, range, utilities). */
  maxListSize: number;
  /**
   * Work bound of one regular-expression call: the text's length times the pattern's program size (what a
   * linear-time engine may spend at most). Past it the call is refused before it starts.
   */
  maxRegexWork: number;
  /** Time bound a pattern-parsing utility passes on (dates); the regex engine itself is bounded by work. */
  matchesTimeoutMs: number;
  /**
   * Steps one call of a utility whose cost can grow faster than its input may take (JSONPath filters and
   * nodes, XPath evaluations and node tests).
   */
  maxUtilitySteps: number;
  /** Time bound of one evaluation, checked inside selection, projection and other loops. */
  maxEvaluationMs: number;
  /**
   * Everything one evaluation builds, added up: characters of strings, items of lists and entries of maps
   * (each list or map also counts 8). Bounds memory as `maxEvaluationMs` bounds time.
   */
  maxTotalSize: number;
}

/** The limits used when the caller sets none. */
export const DEFAULT_PEL_LIMITS: PelLimits = Object.freeze({
  maxExpressionLength: 10_000,
  maxDepth: 100,
  maxStringLength: 1_000_000,
  maxListSize: 100_000,
  maxRegexWork: 1_000_000,
  matchesTimeoutMs: 100,
  maxUtilitySteps: 500_000,
  maxEvaluationMs: 2_000,
  maxTotalSize: 20_000_000,
});

/** Limits no configuration can raise: past them the parser itself would be at risk. */
export const HARD_PEL_LIMITS = Object.freeze({ maxExpressionLength: 1_000_000, maxDepth: 400 });

const resolved = new WeakMap<Partial<PelLimits>, PelLimits>();

/** Merges partial limits over the defaults (cached per object, so a caller's constant costs nothing). */
export function resolveLimits(partial: Partial<PelLimits> | undefined): PelLimits {
  if (!partial) return DEFAULT_PEL_LIMITS;
  let full = resolved.get(partial);
  if (!full) {
    full = Object.freeze({ ...DEFAULT_PEL_LIMITS, ...definedOnly(partial) });
    resolved.set(partial, full);
  }
  return full;
}

function definedOnly(partial: Partial<PelLimits>): Partial<PelLimits> {
  const out: Partial<PelLimits> = {};
  for (const [k, v] of Object.entries(partial)) {
    if (typeof v === 'number' && v >= 0) (out as Record<string, number>)[k] = v;
  }
  return out;
}
