/** Gives each request a trace id (echoed as `X-Trace-Id` and in every error) and logs it when it ends. */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logging/logger';

const INCOMING_TRACE_ID = /^[A-Za-z0-9-]{8,64}$/;

/** A random per-process prefix and a counter: unique across restarts without a random draw per request. */
const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

export function traceRequests(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-trace-id'];
    const traceId =
      typeof incoming === 'string' && INCOMING_TRACE_ID.test(incoming)
        ? incoming
        : `${PREFIX}${(++counter).toString(16).padStart(6, '0')}`;
    res.locals.traceId = traceId;
    res.setHeader('X-Trace-Id', traceId);
    if (logger.isLevelEnabled('info')) {
      const started = performance.now();
      res.on('finish', () => {
        const level = res.statusCode >= 500 ? 'error' : 'info';
        logger[level](
          {
            traceId,
            method: req.method,
            path: req.path,
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
            user: res.locals.principal?.username,
          },
          'request',
        );
      });
    }
    next();
  };
}
