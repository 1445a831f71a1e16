/** What every compile step knows: the source (for positions) and whether it is inside selection/projection. */
import type { PelNode } from './ast';
import type { Evaluator } from './runtime';

export interface CompileContext {
  /** The whole text the node offsets refer to (a template or an expression). */
  readonly source: string;
  /** True inside `.?[]`, `.^[]`, `.$[]` and `.![]`, where bare names read the current item. */
  readonly inLambda: boolean;
}

export type CompileFn = (node: PelNode, cx: CompileContext) => Evaluator;
