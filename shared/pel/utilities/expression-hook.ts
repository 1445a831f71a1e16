/**
 * How a utility that takes a PEL expression as an argument (`@text.concatAndFormat`) compiles it, without the
 * utilities importing the compiler that imports them: the expression module provides itself here on load.
 */
import { LruCache } from '../../values/lru-cache';
import type { PelScope } from '../types';

export interface HookedExpression {
  evaluate(scope: PelScope): unknown;
}

let compiler: ((source: string) => HookedExpression) | undefined;
/** Compiled once per text: a utility called for every item of a list would otherwise parse its expression each time. */
const compiled = new LruCache<HookedExpression>(1_000, 1_000_000);

/** Called once by `../expression` when it loads. */
export function provideExpressionCompiler(compile: (source: string) => HookedExpression): void {
  compiler = compile;
}

/** Compiles a PEL expression (no `#{}`), or takes it from the cache; throws as the compiler does. */
export function compileUtilityExpression(source: string): HookedExpression {
  if (!compiler) throw new Error('The PEL expression compiler is not loaded.');
  let expression = compiled.get(source);
  if (!expression) {
    expression = compiler(source);
    compiled.set(source, expression);
  }
  return expression;
}
