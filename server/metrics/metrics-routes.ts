/**
 * `GET /metrics` and the request counting behind it. A scrape is allowed with `Authorization: Bearer
 * <PIPEWORK_METRICS_TOKEN>` when that is set, or for a signed-in admin: pipeline keys and user activity
 * are not for everyone.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { isAdmin } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { ServerServices } from '../services';
import { routeOf } from './metrics';

/** Counts every request when it ends. */
export function countRequests(services: ServerServices): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () =>
      services.metrics.observeRequest(
        req.method,
        routeOf(req.path),
        res.statusCode,
        (performance.now() - started) / 1000,
      ),
    );
    next();
  };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The scrape: with the metrics token, or through authentication as an admin. */
export function metricsHandlers(services: ServerServices, caller: RequestHandler): RequestHandler[] {
  const token = services.config.metricsToken;
  const answer: RequestHandler = (_req, res, next) => {
    services.metrics.text().then((text) => res.type(services.metrics.contentType).send(text), next);
  };
  const byToken: RequestHandler = (req, res, next) => {
    if (token && tokenMatches(req.headers.authorization, token)) answer(req, res, next);
    else next();
  };
  const adminOnly: RequestHandler = (_req, res, next) => {
    if (isAdmin(res.locals.principal)) next();
    else next(new PipeworkError('FORBIDDEN', 'Only an admin (or the metrics token) may read the metrics.'));
  };
  return [byToken, caller, adminOnly, answer];
}
