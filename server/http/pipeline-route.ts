/** Endpoint 4: `POST /api/v3/pipeline` runs a pipeline sent as YAML, JSON or a one-line URI. */
import type { RequestHandler } from 'express';
import { PipeworkError } from '../../shared/errors';
import { type PipelineScript, parsePipelineForm, pipelineKindFromContentType } from '../../shared/pipeline';
import { readContentCollection } from './multipart';
import type { ServerServices } from '../services';
import { executePipeline } from '../pipeline/execute-pipeline';
import { parsePipelineCached } from '../pipeline/parsed-pipelines';
import { readBody } from './read-body';
import { clientGone, requestScope } from './request-scope';
import { sendResult } from './send-result';
import { sendAsyncStarted } from './async-answer';
import { asksAsync, requestTrigger } from './request-trigger';
import { startAsyncRun } from '../runs/async-runs';
import { requestSpool } from './upload-spool';

export function pipelineHandler(services: ServerServices): RequestHandler {
  return async (req, res, next) => {
    try {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const form = type === 'application/x-www-form-urlencoded';
      const kind =
        form || type === 'multipart/form-data'
          ? 'uri'
          : pipelineKindFromContentType(req.headers['content-type']);
      if (!kind) {
        throw new PipeworkError(
          'UNSUPPORTED_MEDIA_TYPE',
          `A pipeline is sent as application/yaml, application/json, application/x-www-form-urlencoded, ` +
            `multipart/form-data or text/plain (a pipeline URI), not ${req.headers['content-type']}.`,
        );
      }
      let script: PipelineScript;
      let source: { text: string; form: 'yaml' | 'json' | 'uri' } | undefined;
      if (type === 'multipart/form-data') {
        // A `pipeline` part (YAML) and `file` parts, which become the body as a content collection.
        const { files, fields } = await readContentCollection(
          req,
          requestSpool(services, res),
          services.config.limits.uploadBytes,
        );
        if (fields.pipeline === undefined) {
          throw new PipeworkError('PARAM_INVALID', "The multipart body has no part named 'pipeline'.", {
            parameter: 'pipeline',
          });
        }
        const parsed = parsePipelineCached(fields.pipeline, 'yaml');
        source = { text: fields.pipeline, form: 'yaml' };
        script = files.length === 0 ? parsed : { ...parsed, body: files };
      } else {
        const text = (await readBody(req, services.config.limits.pipelineBodyBytes)).toString('utf8');
        // The real product's url-encoded form (`datetime=format:dd.MM.YY&set.body=...`); text/plain is our URI.
        script = form ? parsePipelineForm(text) : parsePipelineCached(text, kind);
        if (!form) source = { text, form: kind };
      }
      const trace = req.query.trace === 'true' || req.query.trace === '';
      if (asksAsync(req)) {
        const { runId } = await startAsyncRun(services, script, {
          principal: res.locals.principal,
          trigger: requestTrigger(req, 'async'),
          source,
          request: requestScope(req),
          traceId: res.locals.traceId,
        });
        sendAsyncStarted(res, runId);
        return;
      }
      const result = await executePipeline(services, script, {
        principal: res.locals.principal,
        trigger: requestTrigger(req, 'http'),
        source,
        trace,
        request: () => requestScope(req),
        cancellation: clientGone(res),
        traceId: res.locals.traceId,
        topLevel: true,
      });
      if (trace) {
        res.status(200).json({
          status: 'ok',
          body: result.body ?? null,
          stepsExecuted: result.stepsExecuted,
          durationMs: result.durationMs,
          trace: result.trace,
        });
        return;
      }
      await sendResult(res, result.body);
    } catch (error) {
      next(error);
    }
  };
}
