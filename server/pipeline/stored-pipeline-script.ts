/**
 * The script of a stored pipeline property, parsed by its type (JSON or YAML), through the parsed-text cache.
 * Used wherever a stored pipeline is run: `pipeline.start`/`call`, the HTTP endpoint, webhooks, re-runs.
 */
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import type { PipelineScript } from '../../shared/pipeline';
import { isJsonType, type Property } from '../../shared/property';
import { parsePipelineCached } from './parsed-pipelines';

/** A stored pipeline property parsed (JSON or YAML by its type); PIPELINE_SYNTAX naming it when it cannot be. */
export function scriptOfProperty(property: Property, parameter: string): PipelineScript {
  const key = property.key;
  const type = property.type ?? 'text/plain';
  if (/javascript|python|groovy/i.test(type)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `'${key}' is a script, not a pipeline: run it with script.run.`,
      {
        parameter,
      },
    );
  }
  try {
    return parsePipelineCached(property.value ?? '', isJsonType(type) ? 'json' : 'yaml');
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    throw new PipeworkError(
      'PIPELINE_SYNTAX',
      `The stored pipeline '${key}' cannot be read: ${error.message}`,
      {
        parameter,
        pipeline: key,
        called: error.details,
      },
    );
  }
}
