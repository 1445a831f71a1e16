/** The pipeline module's public face: parse the three forms, locate positions, validate without running. */
export type {
  PipelineScript,
  PipelineSourceKind,
  PipelineStep,
  ScalarSource,
  ScalarStyle,
  SourcePosition,
} from './model';
export { PIPELINE_LIMITS } from './limits';
export { parsePipeline, pipelineKindFromContentType } from './parse-pipeline';
export { parsePipelineJson } from './parse-json';
export { parsePipelineUri } from './parse-uri';
export { formPipelineDocument, parsePipelineForm } from './parse-form';
export { parsePipelineYaml, type YamlParseOptions } from './parse-yaml';
export { locatedTexts, scriptWith } from './lazy-positions';
export { locateInParameter, locateInScalar, locateInSection } from './locate';
export { problemsError } from './problems-error';
export {
  validatePipeline,
  validateScript,
  type CommandLookup,
  type ExpressionChecker,
  type PipelineProblem,
  type ValidateOptions,
} from './validate-pipeline';
