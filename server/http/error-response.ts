/** The one place that turns any error into the contract's error body (DESIGN.md section 4). */
import type { ErrorRequestHandler, Response } from 'express';
import { PipeworkError, STATUS_MESSAGES, isConnectionFailure, isPipeworkError } from '../../shared/errors';
import type { Logger } from '../logging/logger';

export interface ErrorBody {
  status: 'error';
  statusCode: number;
  statusMessage: string;
  value: Record<string, unknown> & { code: string; message: string; traceId: string };
}

/** The error body for a PipeworkError; details that are undefined are left out. */
export function errorBody(error: PipeworkError, traceId: string): ErrorBody {
  const value: ErrorBody['value'] = { code: error.code, message: error.message, traceId };
  for (const [key, detail] of Object.entries(error.details))
    if (detail !== undefined && !(key in value)) value[key] = detail;
  return {
    status: 'error',
    statusCode: error.status,
    statusMessage: STATUS_MESSAGES[error.status] ?? 'ERROR',
    value,
  };
}

/** A lost or refused database connection: 503, to be retried (the cause goes to the log). */
export function databaseUnavailable(cause: unknown): PipeworkError {
  return new PipeworkError(
    'UNAVAILABLE',
    'The database cannot be reached at the moment; try again shortly.',
    { retryAfterSeconds: 5 },
    { cause },
  );
}

/**
 * Anything thrown becomes a PipeworkError; a failed database connection becomes UNAVAILABLE, and anything
 * else is a bug and becomes INTERNAL.
 */
export function toPipeworkError(error: unknown): PipeworkError {
  if (isPipeworkError(error)) return error;
  const status = (error as { status?: unknown; type?: unknown } | null)?.status;
  if (status === 413) return new PipeworkError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (status === 400) {
    const reason = error instanceof Error ? `: ${error.message}` : '.';
    return new PipeworkError('BAD_REQUEST', `The request could not be read${reason}`);
  }
  if (isConnectionFailure(error)) return databaseUnavailable(error);
  return new PipeworkError(
    'INTERNAL',
    'An internal error occurred; the trace id identifies it in the server log.',
    {},
    { cause: error },
  );
}

/**
 * The challenge of a 401. Browsers answer a Basic challenge to a script's request with a password dialog,
 * so scripts that say so (`X-Requested-With: XMLHttpRequest`, as the workbench does) get only Bearer.
 */
function challengeFor(res: Response): string {
  const fromScript = res.req.headers['x-requested-with'] === 'XMLHttpRequest';
  return fromScript ? 'Bearer realm="pipework"' : 'Basic realm="pipework", Bearer realm="pipework"';
}

export function sendError(res: Response, error: unknown, logger: Logger): void {
  const failure = toPipeworkError(error);
  const traceId = String(res.locals.traceId ?? '');
  if (failure.code === 'INTERNAL') {
    logger.error({ traceId, err: failure.cause ?? error }, 'internal error');
  } else if (failure.code === 'UNAVAILABLE') {
    logger.warn({ traceId, err: failure.cause ?? error }, 'the database cannot be reached');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (failure.code === 'UNAUTHENTICATED') {
    res.setHeader('WWW-Authenticate', challengeFor(res));
  }
  if (typeof failure.details.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(Math.ceil(failure.details.retryAfterSeconds)));
  }
  res.status(failure.status).json(errorBody(failure, traceId));
}

/** Express's last error handler. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => sendError(res, error, logger);
}
