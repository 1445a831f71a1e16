/**
 * What operations call: `GET /healthz` (liveness), `GET /readyz` (readiness: the database answers; 503
 * otherwise) and `GET /metrics` (Prometheus text, for the metrics token or an admin; docs/operations.md).
 */
import { defineEndpoint, type None } from '../endpoint';

export interface Health {
  status: 'ok';
}

export interface Readiness {
  status: 'ok' | 'unavailable';
}

export const healthz = defineEndpoint<None, None, None, Health>({
  method: 'GET',
  path: '/healthz',
  summary: 'the liveness check',
});

export const readyz = defineEndpoint<None, None, None, Readiness>({
  method: 'GET',
  path: '/readyz',
  summary: 'the readiness check',
});

/** The answer is Prometheus's text format, not JSON. */
export const metrics = defineEndpoint<None, None, None, string>({
  method: 'GET',
  path: '/metrics',
  summary: 'the metrics scrape',
});
