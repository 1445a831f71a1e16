/** Picks the front end for a pipeline source by its kind or its HTTP content type. */
import type { PipelineScript, PipelineSourceKind } from './model';
import { parsePipelineJson } from './parse-json';
import { parsePipelineUri } from './parse-uri';
import { parsePipelineYaml, type YamlParseOptions } from './parse-yaml';

/** Parses a pipeline written in any of the three forms into the one model. */
export function parsePipeline(
  text: string,
  kind: PipelineSourceKind,
  options: YamlParseOptions = {},
): PipelineScript {
  switch (kind) {
    case 'yaml':
      return parsePipelineYaml(text, options);
    case 'json':
      return parsePipelineJson(text);
    case 'uri':
      return parsePipelineUri(text);
  }
}

const KINDS: Record<string, PipelineSourceKind> = {
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'application/json': 'json',
  'text/plain': 'uri',
};

/**
 * The form of a pipeline sent with this Content-Type (parameters such as charset ignored): YAML when
 * none is given, null when the type is not a pipeline form (the caller answers 415).
 */
export function pipelineKindFromContentType(contentType: string | undefined): PipelineSourceKind | null {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === '') return 'yaml';
  return KINDS[mediaType] ?? null;
}
