/**
 * Stored pipelines, as the real product's HTTP API serves them: `POST /api/v3/pipeline:<key>` (or
 * `:uuid:<uuid>`) runs one as the caller, the query's parameters as vars and the body by its content type;
 * `PUT /api/v3/pipeline:<key>` stores YAML, JSON or an url-encoded pipeline as YAML (docs/pipelines.md).
 */
import type { SaveResult } from '../../property';
import { defineEndpoint, type None } from '../endpoint';

/** The key (slashes and all) or `uuid:<uuid>`. */
export interface PipelineReference {
  reference: string;
}

/** The key follows a colon and holds slashes: the server routes by the pattern, `path` builds the URL. */
export const STORED_PIPELINE_PATTERN = /^\/api\/v3\/pipeline:(.+)$/;
const pattern = STORED_PIPELINE_PATTERN;

/** Any query parameter is a var: there is no fixed query. The answer is the pipeline's final body. */
export const runStoredPipeline = defineEndpoint<PipelineReference, Record<string, string>, None, unknown>({
  method: 'POST',
  path: '/api/v3/pipeline::reference',
  pattern,
  summary: 'running a stored pipeline',
});

export type StoredPipeline = Pick<SaveResult, 'result' | 'property'>;

export const putStoredPipeline = defineEndpoint<PipelineReference, None, None, StoredPipeline>({
  method: 'PUT',
  path: '/api/v3/pipeline::reference',
  pattern,
  summary: 'storing a pipeline',
});
