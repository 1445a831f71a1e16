/** One compiled expression: parse, measure, compile; evaluate and assign with limits and error positions. */
import type { PelNode } from './ast';
import { depthOf } from './ast';
import { type Site, pelError, toPelError } from './errors';
import { HARD_PEL_LIMITS, type PelLimits, resolveLimits } from './limits';
import { isAssignable, parseExpression } from './parser';
import { type Evaluator, type Runtime, createRuntime } from './runtime';
import { compileTree } from './compile';
import { type Setter, compileSetter } from './compile-assign';
import type { PelOptions, PelScope } from './types';
import { compileNode } from './compile';
import { provideExpressionCompiler } from './utilities/expression-hook';

/** An expression compiled from `source` between `start` and `end` (a template's `#{...}` or a whole text). */
export class CompiledExpression {
  readonly ast: PelNode;
  readonly depth: number;
  readonly length: number;
  readonly site: Site;
  private readonly run: Evaluator;
  private setter: Setter | null | undefined;

  constructor(source: string, start = 0, end = source.length) {
    this.length = end - start;
    this.site = { source, start, end };
    if (this.length > HARD_PEL_LIMITS.maxExpressionLength) {
      throw pelError('EXPRESSION_TOO_LONG', this.site, this.length, HARD_PEL_LIMITS.maxExpressionLength);
    }
    this.ast = parseExpression(source, start, end);
    this.depth = depthOf(this.ast);
    if (this.depth > HARD_PEL_LIMITS.maxDepth)
      throw pelError('TOO_DEEP', this.site, HARD_PEL_LIMITS.maxDepth);
    this.run = compileTree(this.ast, source);
  }

  /** Throws LIMIT_EXCEEDED when this expression is longer or deeper than the caller's limits allow. */
  checkLimits(limits: PelLimits): void {
    if (this.length > limits.maxExpressionLength) {
      throw pelError('EXPRESSION_TOO_LONG', this.site, this.length, limits.maxExpressionLength);
    }
    if (this.depth > limits.maxDepth) throw pelError('TOO_DEEP', this.site, limits.maxDepth);
  }

  evaluate(scope: PelScope, options?: PelOptions): unknown {
    const limits = resolveLimits(options?.limits);
    this.checkLimits(limits);
    return this.evaluateIn(createRuntime(scope, options?.utilities, limits, options?.deadline));
  }

  /** Evaluates in a runtime the caller made (and checked the limits for): a template shares one. */
  evaluateIn(rt: Runtime): unknown {
    try {
      const v = this.run(rt);
      return v === undefined ? null : v;
    } catch (e) {
      throw toPelError(e, this.site);
    }
  }

  assign(scope: PelScope, value: unknown, options?: PelOptions): void {
    const limits = resolveLimits(options?.limits);
    this.checkLimits(limits);
    if (this.setter === undefined) {
      this.setter = isAssignable(this.ast)
        ? compileSetter(this.ast, { source: this.site.source, inLambda: false }, compileNode)
        : null;
    }
    if (this.setter === null) {
      throw pelError('NOT_WRITABLE', this.site, 'only a path from vars, body or headers can be assigned');
    }
    const rt = createRuntime(scope, options?.utilities, limits, options?.deadline);
    try {
      this.setter(rt, value);
    } catch (e) {
      throw toPelError(e, this.site);
    }
  }
}

provideExpressionCompiler((source) => new CompiledExpression(source));
