/**
 * `/healthz` (liveness: the process answers) and `/readyz` (readiness: the database answers too). Load balancers
 * take an instance that cannot reach the database out of rotation while `/healthz` keeps it from being restarted.
 */
import { Router } from 'express';
import { healthz, readyz, type Readiness } from '../../shared/api';
import { databaseAnswers } from '../db/server-database';
import type { ServerServices } from '../services';
import { serveEndpoint } from './endpoint-route';

export function healthRoutes(services: ServerServices): Router {
  const router = Router();
  serveEndpoint(router, healthz, [], () => Promise.resolve({ status: 'ok' }));
  serveEndpoint(router, readyz, [], async ({ res }): Promise<Readiness> => {
    const ready = await databaseAnswers(services.database);
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable' };
  });
  return router;
}
