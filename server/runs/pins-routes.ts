/**
 * Pins over HTTP (docs/runs.md): `GET /api/v3/pins?pipeline=<key>`, `POST /api/v3/runs/<id>/pin` with
 * `{"stepIndex": n, "pipeline"?: "<key>"}` (the output that step gave in that run), and
 * `DELETE /api/v3/pins?pipeline=<key>&step=<n>`. Each answers the pipeline's pins.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { PipeworkError } from '../../shared/errors';
import { RUNS_PATH } from '../http/async-answer';
import { parseJsonBody } from '../http/json-body';
import { readBody } from '../http/read-body';
import type { ServerServices } from '../services';
import { listPins, pinStep, unpinStep } from './pins';

export const PINS_PATH = '/api/v3/pins';
const MAX_PIN_REQUEST_BYTES = 4096;

function invalid(parameter: string, message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter });
}

function pipelineOf(req: Request): string {
  const value = req.query.pipeline;
  if (typeof value !== 'string' || value === '')
    throw invalid('pipeline', "'pipeline' must name the stored pipeline, once.");
  return value;
}

function stepIndexOf(value: unknown, parameter: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 100_000)
    throw invalid(parameter, `'${parameter}' must be a step index (a whole number from 0).`);
  return n;
}

async function pinRequestOf(req: Request): Promise<{ stepIndex: number; pipeline?: string }> {
  const body = parseJsonBody((await readBody(req, MAX_PIN_REQUEST_BYTES)).toString('utf8'));
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new PipeworkError('BAD_REQUEST', 'The body must be a JSON object: {"stepIndex": n}.');
  const { stepIndex, pipeline } = body as Record<string, unknown>;
  if (pipeline !== undefined && typeof pipeline !== 'string')
    throw invalid('pipeline', "'pipeline' must be a property key.");
  return { stepIndex: stepIndexOf(stepIndex, 'stepIndex'), pipeline };
}

/** The routes, behind the authentication (`caller`); Express 5 hands a rejected handler to the error handler. */
export function pinsRoutes(services: ServerServices, caller: RequestHandler): Router {
  const router = Router();
  router.get(PINS_PATH, caller, async (req, res) => {
    res.json(await listPins(services, res.locals.principal, pipelineOf(req)));
  });
  router.post(`${RUNS_PATH}/:id/pin`, caller, async (req, res) => {
    const request = await pinRequestOf(req);
    res.json(await pinStep(services, res.locals.principal, String(req.params.id), request));
  });
  router.delete(PINS_PATH, caller, async (req, res) => {
    const step = stepIndexOf(req.query.step, 'step');
    res.json(await unpinStep(services, res.locals.principal, pipelineOf(req), step));
  });
  return router;
}
