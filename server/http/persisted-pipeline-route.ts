/**
 * Persisted pipelines, as the real product's HTTP API serves them: `POST /api/v3/pipeline:<key>` (or
 * `:uuid:<uuid>`) runs the stored pipeline as the caller (request parameters become vars, the body by its
 * content type); `PUT /api/v3/pipeline:<key>` stores YAML, JSON or an url-encoded pipeline as YAML, with the
 * caller's rights, after checking it the way `pipeline.validate` does (an invalid one stores nothing).
 */
import type { Request, RequestHandler } from 'express';
import { stringify as toYaml } from 'yaml';
import { STORED_PIPELINE_PATTERN } from '../../shared/api';
import { PipeworkError } from '../../shared/errors';
import {
  formPipelineDocument,
  scriptWith,
  validatePipeline,
  type PipelineScript,
} from '../../shared/pipeline';
import { BinaryContent } from '../../shared/values';
import { asLiteral } from '../commands/flow/run-stored-pipeline';
import type { LoadedPipeline } from '../pipeline/stored-pipeline-cache';
import { executePipeline } from '../pipeline/execute-pipeline';
import type { ServerServices } from '../services';
import { parseJsonBody } from './json-body';
import { readBody } from './read-body';
import { clientGone, requestScope } from './request-scope';
import { sendResult } from './send-result';
import { sendAsyncStarted } from './async-answer';
import { asksAsync, requestTrigger } from './request-trigger';
import { startAsyncRun } from '../runs/async-runs';

/** The stored type of a pipeline put over HTTP. */
export const PIPELINE_PROPERTY_TYPE = 'application/yaml;type=pipeline';

function referenceOf(req: Request): string {
  const raw = STORED_PIPELINE_PATTERN.exec(req.path)![1]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new PipeworkError(
      'BAD_REQUEST',
      'The pipeline reference in the path is not valid percent-encoding.',
    );
  }
}

function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The stored pipeline, a script of its own for this run, and who it runs as (the caller bound by the code's
 * author, as for `pipeline.start`): by key from the cache; by uuid, the uuid's key through the same cache.
 */
async function loadPipeline(
  services: ServerServices,
  req: Request,
  reference: string,
): Promise<LoadedPipeline> {
  const principal = req.res!.locals.principal;
  if (!reference.startsWith('uuid:')) return services.storedPipelines.load(principal, reference);
  const { key } = await services.properties.getByUuid(principal, reference.slice(5));
  return services.storedPipelines.load(principal, key);
}

/** The request body as the pipeline's body: JSON parsed, text as text, anything else as a content object. */
async function bodyOf(req: Request, limit: number, fallback: unknown): Promise<unknown> {
  if (!hasBody(req)) return fallback;
  const bytes = await readBody(req, limit);
  const type = mediaType(req);
  if (type === 'application/json' || type.endsWith('+json')) return parseJsonBody(bytes.toString('utf8'));
  if (type.startsWith('text/')) return bytes.toString('utf8');
  return new BinaryContent(
    new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
    type || 'application/octet-stream',
  );
}

/** Request parameters as vars: one value as text, a repeated one as a list; never evaluated again. */
function varsOf(req: Request): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query)) vars[name] = value;
  return asLiteral(vars) as Record<string, unknown>;
}

export function runPersistedPipelineHandler(services: ServerServices): RequestHandler {
  return async (req, res, next) => {
    try {
      const { property, script, runAs } = await loadPipeline(services, req, referenceOf(req));
      const run: PipelineScript = scriptWith(script, {
        vars: { ...script.vars, ...varsOf(req) },
        body: await bodyOf(req, services.config.limits.commandBodyBytes, script.body),
      });
      const options = {
        principal: runAs,
        trigger: requestTrigger(req, 'stored', property.key),
        pipelineKey: property.key,
        request: () => requestScope(req),
        cancellation: clientGone(res),
        traceId: res.locals.traceId,
      };
      if (asksAsync(req)) {
        const { runId } = await startAsyncRun(services, run, { ...options, request: requestScope(req) });
        sendAsyncStarted(res, runId);
        return;
      }
      const result = await executePipeline(services, run, options);
      await sendResult(res, result.body);
    } catch (error) {
      if (!res.headersSent) req.resume();
      next(error);
    }
  };
}

/** The pipeline of a PUT as YAML text: YAML (or no type) as sent; JSON and url-encoded converted. */
function yamlOf(type: string, text: string): string {
  if (type === '' || type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    return text;
  }
  if (type === 'application/json') return toYaml(parseJsonBody(text));
  if (type === 'application/x-www-form-urlencoded') return toYaml(formPipelineDocument(text));
  throw new PipeworkError(
    'UNSUPPORTED_MEDIA_TYPE',
    `A pipeline is stored from application/yaml, application/json or application/x-www-form-urlencoded, not ${type}.`,
  );
}

export function putPersistedPipelineHandler(services: ServerServices): RequestHandler {
  return async (req, res, next) => {
    try {
      const reference = referenceOf(req);
      if (reference.startsWith('uuid:')) {
        throw new PipeworkError('BAD_REQUEST', 'A pipeline is stored under its key, not a uuid.');
      }
      const text = (await readBody(req, services.config.limits.pipelineBodyBytes)).toString('utf8');
      const yaml = yamlOf(mediaType(req), text);
      const problem = validatePipeline(yaml, 'yaml', services.commands).find((p) => p.severity === 'error');
      if (problem) {
        const { code, message, severity: _severity, ...details } = problem;
        throw new PipeworkError(code, message, details);
      }
      const { result, property } = await services.properties.create(
        res.locals.principal,
        { key: reference, value: yaml, type: PIPELINE_PROPERTY_TYPE },
        'update',
      );
      res.status(200).json({ result, property });
    } catch (error) {
      if (!res.headersSent) req.resume();
      next(error);
    }
  };
}
