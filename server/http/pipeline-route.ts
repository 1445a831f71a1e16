/** Endpoint 4: `POST /api/v3/pipeline` runs a pipeline sent as YAML, JSON or a one-line URI. */
import type { RequestHandler } from 'express';
import { PipeworkError } from '../../shared/errors';
import { pipelineKindFromContentType } from '../../shared/pipeline';
import type { ServerServices } from '../services';
import { executePipeline } from '../pipeline/execute-pipeline';
import { parsePipelineCached } from '../pipeline/parsed-pipelines';
import { readBody } from './read-body';
import { clientGone, requestScope } from './request-scope';
import { sendResult } from './send-result';

export function pipelineHandler(services: ServerServices): RequestHandler {
  return async (req, res, next) => {
    try {
      const kind = pipelineKindFromContentType(req.headers['content-type']);
      if (!kind) {
        throw new PipeworkError(
          'UNSUPPORTED_MEDIA_TYPE',
          `A pipeline is sent as application/yaml, application/json or text/plain (a pipeline URI), not ${req.headers['content-type']}.`,
        );
      }
      const text = (await readBody(req, services.config.limits.pipelineBodyBytes)).toString('utf8');
      const script = parsePipelineCached(text, kind);
      const trace = req.query.trace === 'true' || req.query.trace === '';
      const result = await executePipeline(services, script, {
        principal: res.locals.principal,
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
      sendResult(res, result.body);
    } catch (error) {
      next(error);
    }
  };
}
