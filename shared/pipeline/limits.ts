/** The guardrails of pipeline parsing, in one place, so that docs, tests and callers agree on them. */
import { PipeworkError } from '../errors';

export const PIPELINE_LIMITS = {
  /**
   * Deepest nesting of maps and lists anywhere in a script (the root map is level 1). Deeper documents
   * are rejected before they are converted, so no recursive walk can overflow the stack.
   */
  maxDepth: 200,
  /**
   * Longest source text in characters: twice the HTTP limit for pipeline scripts (1 MiB), so every script
   * the API accepts parses, while a runaway stored pipeline is refused before any work is done.
   */
  maxSourceLength: 2 * 1024 * 1024,
  /** YAML alias expansions allowed (`yaml`'s `maxAliasCount`): a "billion laughs" document is refused. */
  maxAliasCount: 50,
} as const;

/** Refuses a source over `maxSourceLength` before it is parsed (LIMIT_EXCEEDED, not a syntax error). */
export function checkSourceLength(text: string): void {
  if (text.length > PIPELINE_LIMITS.maxSourceLength) {
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `The pipeline source has ${text.length} characters; the limit is ${PIPELINE_LIMITS.maxSourceLength}.`,
      { limit: 'maxSourceLength', line: 1, column: 1 },
    );
  }
}

/** The message for a document nested deeper than `maxDepth`. */
export function tooDeepMessage(): string {
  return `Nesting is deeper than ${PIPELINE_LIMITS.maxDepth} levels`;
}

/** True when plain data nests deeper than `maxDepth` (walked without recursion; the value itself is level 1). */
export function isTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > PIPELINE_LIMITS.maxDepth) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
