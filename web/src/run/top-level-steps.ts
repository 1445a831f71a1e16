/**
 * Which steps of a pipeline are outside every `if` and `foreach` block: only those can start a run (a run
 * from inside a block would miss its condition or its loop).
 */
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import type { PipelineForm } from '../editor';

const OPENERS = new Set(['if', 'foreach']);
const CLOSERS = new Set(['if.end', 'foreach.end']);

export function topLevelSteps(text: string, form: PipelineForm): Set<number> {
  const top = new Set<number>();
  let steps;
  try {
    steps = parsePipeline(text, form).steps;
  } catch {
    return top;
  }
  let depth = 0;
  for (const step of steps) {
    if (CLOSERS.has(step.command)) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth === 0 && step.command !== 'if.else') top.add(step.index);
    if (OPENERS.has(step.command)) depth++;
  }
  return top;
}
