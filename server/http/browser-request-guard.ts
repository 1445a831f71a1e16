/**
 * Refuses what a browser may be tricked into sending (CSRF): a request from another site's page, recognised
 * by its `Origin` header (any origin but our own or a configured one) or by `Sec-Fetch-Site: cross-site`,
 * and a command that writes called over GET (a link, an image, a top-level navigation). Requests without
 * these headers (the CLI, curl, server clients) are not browsers' and pass. Both are separate middleware so
 * the routes stay as they are.
 */
import type { Request, RequestHandler } from 'express';
import { isReadOnly } from '../../shared/commands';
import { PipeworkError } from '../../shared/errors';
import type { ServerServices } from '../services';
import { commandNameOf } from './command-routes';

/** `scheme://host[:port]` in lower case, the form browsers send in `Origin`; undefined when not a URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
      ? parsed.origin.toLowerCase()
      : undefined;
  } catch {
    return undefined;
  }
}

/** The request's own origin's host (`Host` header), which a same-origin page's `Origin` carries too. */
function sameHost(origin: string, req: Request): boolean {
  const host = req.headers.host?.toLowerCase();
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * 403 for a request whose `Origin` is neither ours (the same host and port as the request) nor one of
 * `allowed` (exact origins, e.g. `https://portal.example.com`), and for `Sec-Fetch-Site: cross-site` without
 * such an `Origin`. `Origin: null` (a sandboxed or opaque document) is refused.
 */
export function refuseCrossOrigin(allowed: readonly string[]): RequestHandler {
  const allowedOrigins = new Set(allowed.map((o) => originOf(o)).filter((o): o is string => o !== undefined));
  return (req, _res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const normalized = origin.toLowerCase();
      if (allowedOrigins.has(normalized) || sameHost(normalized, req)) return next();
      return next(
        new PipeworkError('FORBIDDEN', `Requests from the origin ${origin.slice(0, 200)} are not accepted.`, {
          reason: 'cross-origin',
        }),
      );
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      return next(
        new PipeworkError('FORBIDDEN', 'Requests from another site are not accepted.', {
          reason: 'cross-origin',
        }),
      );
    }
    next();
  };
}

/** 405 for `GET /api/v3/command/<name>` of a command that writes (or of one that does not say it only reads). */
export function refuseWritesOverGet(services: ServerServices): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = commandNameOf(req);
    const contract = name === undefined ? undefined : services.commands.get(name)?.contract;
    // An unknown name goes on to the command route, which answers COMMAND_NOT_FOUND.
    if (!contract || isReadOnly(contract)) return next();
    res.setHeader('Allow', 'POST');
    next(
      new PipeworkError(
        'METHOD_NOT_ALLOWED',
        `${contract.name} changes data and runs over POST only; GET runs only commands that read.`,
        { commandName: contract.name },
      ),
    );
  };
}
