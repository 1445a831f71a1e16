/** The Pipeline Expression Language: the one entry point for the engine (evaluate) and the workbench (analyze). */
import { LruCache } from '../values/lru-cache';
import { CompiledExpression } from './expression';
import { type PelTemplate, buildTemplate } from './template';
import type { PelOptions, PelScope } from './types';

// Evaluation: scopes, options, limits, utilities.
export { ROOT_NAMES, type PelOptions, type PelScope, type PelUtilities, type PelUtility } from './types';
export { DEFAULT_PEL_LIMITS, HARD_PEL_LIMITS, type PelLimits } from './limits';
export { containsExpression, findTemplateSlots, type PelTemplate, type TemplateKind } from './template';
export {
  UTILITY_SPECS,
  createInstanceUtility,
  createPropertyUtility,
  createUserUtility,
  defaultUtilities,
  type PelInstanceInfo,
  type PelPropertyReader,
  type PelUserInfo,
  type UtilityFunctionSpec,
  type UtilitySpec,
} from './utilities';
export { PEL_REASONS, lineColumnOf, utilityError, type PelReason } from './errors';

// Editor support and the language's stages, for tools.
export {
  analyze,
  type AnalyzeOptions,
  type PelAnalysis,
  type PelDiagnostic,
  type PelToken,
  type PelTokenClass,
} from './analyze';
export {
  complete,
  type CompletionItem,
  type CompletionKind,
  type CompletionResult,
  type CompletionScope,
} from './complete';
export { tokenize, type Token, type TokenKind } from './lexer';
export { parseExpression } from './parser';
export type { NodeOf, PelNode } from './ast';

/** How many compiled texts stay cached (templates and bare expressions, each). */
export const PEL_CACHE_SIZE = 10_000;
/** How many characters of text the cached compilations may add up to (each cache); longer texts are not kept. */
export const PEL_CACHE_CHARACTERS = 4_000_000;

const templates = new LruCache<PelTemplate>(PEL_CACHE_SIZE, PEL_CACHE_CHARACTERS);
const expressions = new LruCache<PelExpression>(PEL_CACHE_SIZE, PEL_CACHE_CHARACTERS);

/** A bare expression (no `#{ }`), compiled once. */
export interface PelExpression {
  evaluate(scope: PelScope, options?: PelOptions): unknown;
  /** Writes `value` where the expression points (`vars.x`, `body.items[0]`, `headers.h`); else PEL_EVAL. */
  assign(scope: PelScope, value: unknown, options?: PelOptions): void;
}

/** Compiles a template text once (cached by text). Throws PEL_SYNTAX with offset/line/column relative to `text`. */
export function compileTemplate(text: string): PelTemplate {
  let t = templates.get(text);
  if (!t) {
    t = buildTemplate(text);
    templates.set(text, t);
  }
  return t;
}

/** Compiles a bare expression once (cached by source text), for callers that hold expressions without `#{}`. */
export function compileExpression(source: string): PelExpression {
  let e = expressions.get(source);
  if (!e) {
    e = new CompiledExpression(source);
    expressions.set(source, e);
  }
  return e;
}

/** One-shot convenience: compile (cached) and evaluate a template. */
export function evaluateTemplate(text: string, scope: PelScope, options?: PelOptions): unknown {
  return compileTemplate(text).evaluate(scope, options);
}

/** Drops every cached compilation (for tests and memory-pressure hooks). */
export function clearPelCache(): void {
  templates.clear();
  expressions.clear();
}
