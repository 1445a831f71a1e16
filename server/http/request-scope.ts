/** The `request` root of expressions: what a pipeline may know of the HTTP call that started it. */
import type { Request } from 'express';

/** Headers never shown to pipelines: credentials stay with the auth layer. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function requestScope(req: Request): Record<string, unknown> {
  const headers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(req.headers))
    if (!HIDDEN_HEADERS.has(name)) headers[name] = value;
  return {
    method: req.method,
    path: req.path,
    params: { ...(req.query as Record<string, unknown>) },
    headers,
  };
}

/** An AbortSignal that fires when the client goes away before the answer is sent. */
export function clientGoneSignal(req: Request): AbortSignal {
  const controller = new AbortController();
  req.res?.on('close', () => {
    if (!req.res?.writableFinished) controller.abort();
  });
  return controller.signal;
}
