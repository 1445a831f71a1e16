/** Gives each request a trace id (echoed as `X-Trace-Id` and in every error) and logs it when it ends. */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logging/logger';

const INCOMING_TRACE_ID = /^[A-Za-z0-9-]{8,64}$/;

export function traceRequests(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-trace-id');
    const traceId = incoming && INCOMING_TRACE_ID.test(incoming) ? incoming : randomBytes(8).toString('hex');
    res.locals.traceId = traceId;
    res.setHeader('X-Trace-Id', traceId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      logger[level](
        {
          traceId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          user: res.locals.principal?.username,
        },
        'request',
      );
    });
    next();
  };
}
