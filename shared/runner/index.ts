export { runPipeline } from './run-pipeline';
export {
  DEFAULT_RUN_LIMITS,
  type Cancellation,
  type RunLimits,
  type RunLogEntry,
  type PreparingRun,
  type RunPipelineOptions,
  type RunResult,
} from './run-options';
export { parseErrorPolicy, type ErrorPolicy } from './error-policy';
export { analyzeBlocks, type BlockInfo, type BlockMap } from './block-structure';
export { traceValue, type TraceStep, type TraceLogLine } from './trace';
