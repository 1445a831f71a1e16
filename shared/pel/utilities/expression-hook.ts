/**
 * How a utility that takes a PEL expression as an argument (`@text.concatAndFormat`) compiles it, without the
 * utilities importing the compiler that imports them: the expression module provides itself here on load.
 */
import type { PelScope } from '../types';

export interface HookedExpression {
  evaluate(scope: PelScope): unknown;
}

let compiler: ((source: string) => HookedExpression) | undefined;

/** Called once by `../expression` when it loads. */
export function provideExpressionCompiler(compile: (source: string) => HookedExpression): void {
  compiler = compile;
}

/** Compiles a PEL expression (no `#{}`); throws as the compiler does. */
export function compileUtilityExpression(source: string): HookedExpression {
  if (!compiler) throw new Error('The PEL expression compiler is not loaded.');
  return compiler(source);
}
