/** The details that name a step in an error: its command, index, and where it stands in the source. */
import type { PipelineStep } from '../pipeline/model';

export function stepDetails(step: PipelineStep): Record<string, unknown> {
  return {
    commandName: step.command,
    commandIndex: step.index,
    line: step.position?.line,
    column: step.position?.column,
  };
}
