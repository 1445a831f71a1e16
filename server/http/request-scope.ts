/** The `request` root of expressions: what a pipeline may know of the HTTP call that started it. */
import type { Request, Response } from 'express';
import type { Cancellation } from '../../shared/runner';

/** Headers never shown to pipelines: credentials stay with the auth layer. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function requestScope(req: Request): Record<string, unknown> {
  const headers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const given = req.headers;
  // Node's header object has no prototype: its own names only, without an array of pairs per request.
  for (const name in given) if (!HIDDEN_HEADERS.has(name)) headers[name] = given[name];
  return {
    method: req.method,
    path: req.path,
    params: { ...(req.query as Record<string, unknown>) },
    headers,
  };
}

/** Cancels a run when the client goes away before the answer is sent. */
class ClientGone implements Cancellation {
  constructor(private readonly res: Response) {}

  get cancelled(): boolean {
    return this.res.destroyed && !this.res.writableFinished;
  }

  onCancel(listener: () => void): void {
    this.res.once('close', () => {
      if (!this.res.writableFinished) listener();
    });
  }
}

export function clientGone(res: Response): Cancellation {
  return new ClientGone(res);
}
