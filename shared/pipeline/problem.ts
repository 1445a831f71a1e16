/** One thing wrong with a pipeline, as the validator reports it to editors and the CLI. */
import type { ErrorCode } from '../errors';

export interface PipelineProblem {
  /** The code the same fault would have at run time. */
  code: ErrorCode;
  message: string;
  severity: 'error' | 'warning';
  line?: number;
  column?: number;
  commandIndex?: number;
  commandName?: string;
  parameter?: string;
}
