/** Pins over HTTP (docs/runs.md), as `shared/api/runs/pin-endpoints.ts` defines them: each answers the pins. */
import { Router, type RequestHandler } from 'express';
import {
  listPins as listPinsEndpoint,
  pinStep as pinStepEndpoint,
  unpinStep as unpinStepEndpoint,
} from '../../shared/api';
import { serveEndpoint } from '../http/endpoint-route';
import type { ServerServices } from '../services';
import { listPins, pinStep, unpinStep } from './pins';

/** The routes, behind the authentication (`caller`). */
export function pinsRoutes(services: ServerServices, caller: RequestHandler): Router {
  const router = Router();
  serveEndpoint(router, listPinsEndpoint, [caller], ({ query, res }) =>
    listPins(services, res.locals.principal, query.pipeline),
  );
  serveEndpoint(router, pinStepEndpoint, [caller], ({ params, body, res }) =>
    pinStep(services, res.locals.principal, params.id, body),
  );
  serveEndpoint(router, unpinStepEndpoint, [caller], ({ query, res }) =>
    unpinStep(services, res.locals.principal, query.pipeline, query.step),
  );
  return router;
}
