/** Finds the blocks of `if` / `if.else` / `if.end` and `foreach` / `foreach.end` before a pipeline runs. */
import type { CommandCatalog } from '../commands/command-definition';
import type { ControlFlowRole } from '../commands/contract';
import { PipeworkError } from '../errors';
import type { PipelineStep } from '../pipeline/model';

/** For each opening step, where its block ends (exclusive) and, for `if`, where its `if.else` is. */
export interface BlockInfo {
  /** Index of the closing `if.end` / `foreach.end`, or the number of steps when the block runs to the end. */
  end: number;
  /** Index of the `if.else` of an `if`, when it has one. */
  else?: number;
}

export type BlockMap = ReadonlyMap<number, BlockInfo>;

/** The index of the pipeline's `finally` step, if any: it must stand once, at the top level. */
export function findFinally(
  steps: readonly PipelineStep[],
  registry: Pick<CommandCatalog, 'get'>,
  blocks: BlockMap,
): number | undefined {
  let found: number | undefined;
  steps.forEach((step, index) => {
    if (roleOf(step, registry) !== 'finally') return;
    if (found !== undefined)
      throw misplaced(step, `A second 'finally' at step ${index}: a pipeline has one, after step ${found}.`);
    for (const [opener, info] of blocks) {
      if (opener < index && index < info.end) {
        const kind = steps[opener]!.command;
        throw misplaced(
          step,
          `'finally' at step ${index} is inside the '${kind}' block of step ${opener}: finally runs once, at the ` +
            'end of the whole pipeline, so it must stand at the top level (after the block ends).',
        );
      }
    }
    found = index;
  });
  return found;
}

function roleOf(step: PipelineStep, registry: Pick<CommandCatalog, 'get'>): ControlFlowRole | undefined {
  return registry.get(step.command)?.contract.controlFlow;
}

function misplaced(step: PipelineStep, message: string): PipeworkError {
  return new PipeworkError('PIPELINE_SYNTAX', message, {
    commandName: step.command,
    commandIndex: step.index,
    line: step.position?.line,
    column: step.position?.column,
  });
}

/**
 * Matches openers with closers. Blocks nest; a block without its closer runs to the end of the pipeline
 * (as the real product does), but a closer without an opener, or blocks that interleave, is an error.
 */
export function analyzeBlocks(
  steps: readonly PipelineStep[],
  registry: Pick<CommandCatalog, 'get'>,
): BlockMap {
  const blocks = new Map<number, BlockInfo>();
  const open: { index: number; kind: 'if' | 'foreach' }[] = [];
  steps.forEach((step, index) => {
    const role = roleOf(step, registry);
    if (role === 'if' || role === 'foreach') {
      open.push({ index, kind: role });
      blocks.set(index, { end: steps.length });
    } else if (role === 'if.else' || role === 'if.end' || role === 'foreach.end') {
      const kind = role === 'foreach.end' ? 'foreach' : 'if';
      const top = open[open.length - 1];
      if (!top)
        throw misplaced(step, `'${step.command}' at step ${index + 1} has no open '${kind}' before it.`);
      if (top.kind !== kind) {
        throw misplaced(
          step,
          `'${step.command}' at step ${index + 1} closes a '${kind}' but the open block is '${top.kind}' (step ${top.index + 1}).`,
        );
      }
      const info = blocks.get(top.index)!;
      if (role === 'if.else') {
        if (info.else !== undefined)
          throw misplaced(step, `A second 'if.else' for the 'if' at step ${top.index + 1}.`);
        info.else = index;
      } else {
        info.end = index;
        open.pop();
      }
    }
  });
  return blocks;
}
