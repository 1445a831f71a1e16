/** The trigger a request's run is recorded with: `cli` when the `pi` CLI sent it (its client header). */
import type { Request } from 'express';
import type { RunTrigger, RunTriggerKind } from '../runs/run-trigger';

export const CLIENT_HEADER = 'x-pipework-client';

export function requestTrigger(req: Request, kind: RunTriggerKind, source?: string): RunTrigger {
  if (req.headers[CLIENT_HEADER] === 'cli')
    return source === undefined ? { kind: 'cli' } : { kind: 'cli', source };
  return source === undefined ? { kind } : { kind, source };
}

/** Whether the request asks for an async run (`?async=true` or `?async`). */
export function asksAsync(req: Request): boolean {
  return req.query.async === 'true' || req.query.async === '';
}
