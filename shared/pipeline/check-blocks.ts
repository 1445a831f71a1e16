/** Finds misplaced `if.else` / `if.end` / `foreach.end` and interleaved blocks, as problems rather than a throw. */
import type { CommandContract, ControlFlowRole } from '../commands/contract';
import type { PipelineStep, SourcePosition } from './model';
import type { PipelineProblem } from './problem';

interface OpenBlock {
  kind: 'if' | 'foreach';
  step: PipelineStep;
  hasElse: boolean;
}

function where(position: SourcePosition | undefined): string {
  return position ? ` at ${position.line}:${position.column}` : '';
}

/**
 * The same rules as the runner: blocks nest; a block without its closer runs to the end of the pipeline;
 * a closer without an open block, a second `if.else`, or blocks that interleave are errors.
 */
export function checkBlocks(
  steps: readonly PipelineStep[],
  contractOf: (step: PipelineStep) => CommandContract | undefined,
): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  const open: OpenBlock[] = [];
  const report = (step: PipelineStep, message: string) =>
    problems.push({
      code: 'PIPELINE_SYNTAX',
      severity: 'error',
      message,
      commandIndex: step.index,
      commandName: step.command,
      ...step.position,
    });
  let finallyStep: PipelineStep | undefined;
  for (const step of steps) {
    const role: ControlFlowRole | undefined = contractOf(step)?.controlFlow;
    if (role === 'finally') {
      const inside = open[open.length - 1];
      if (finallyStep)
        report(
          step,
          `A second 'finally'${where(step.position)}: a pipeline has one${where(finallyStep.position)}.`,
        );
      else if (inside)
        report(
          step,
          `'finally'${where(step.position)} is inside the '${inside.kind}'${where(inside.step.position)}: it runs ` +
            'once, at the end of the whole pipeline, so it must stand at the top level.',
        );
      finallyStep ??= step;
      continue;
    }
    if (role === 'if' || role === 'foreach') {
      open.push({ kind: role, step, hasElse: false });
      continue;
    }
    if (role !== 'if.else' && role !== 'if.end' && role !== 'foreach.end') continue;
    const kind = role === 'foreach.end' ? 'foreach' : 'if';
    const name = `'${step.command}'${where(step.position)}`;
    const top = open[open.length - 1];
    if (top?.kind === kind) {
      if (role === 'if.else') {
        if (top.hasElse)
          report(step, `${name} is a second 'if.else' for the 'if'${where(top.step.position)}.`);
        top.hasElse = true;
      } else {
        open.pop();
      }
      continue;
    }
    const match = open.map((b) => b.kind).lastIndexOf(kind);
    if (match === -1) {
      report(step, `${name} has no open '${kind}' before it.`);
      continue;
    }
    report(
      step,
      `${name} closes the '${kind}'${where(open[match]!.step.position)} while the '${top!.kind}'` +
        `${where(top!.step.position)} inside it is still open: blocks must nest.`,
    );
    // Go on as if the inner blocks had been closed, so one mistake gives one problem.
    open.length = role === 'if.else' ? match + 1 : match;
  }
  return problems;
}
