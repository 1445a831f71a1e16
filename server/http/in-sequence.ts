/**
 * Middlewares every request passes, run as one router layer: each layer costs Express a path match and its
 * bookkeeping on every request, and these few always apply.
 */
import type { RequestHandler } from 'express';

/** Runs `handlers` in order, as Express would (an error, or a handler that answers, stops the sequence). */
export function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const handler = handlers[index++];
      if (handler === undefined) next();
      else void handler(req, res, step);
    };
    step();
  };
}

/**
 * `handler` for paths under one of `prefixes` (the prefix itself, or it and a slash), compared as Express
 * compares paths (ignoring case); other paths go on. Unlike `app.use(prefix, ...)` it leaves `req.url` whole.
 */
export function underPrefixes(prefixes: readonly string[], handler: RequestHandler): RequestHandler {
  const lower = prefixes.map((prefix) => prefix.toLowerCase());
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    const under = lower.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    if (under) void handler(req, res, next);
    else next();
  };
}
