/** The answer to a request that started an async run: 202 with the run id and where to poll it. */
import type { Response } from 'express';

export const RUNS_PATH = '/api/v3/runs';

/** What a started async run is answered with (over HTTP and by `pipeline.start` with `async: true`). */
export function asyncStartedBody(runId: string) {
  const statusUrl = `${RUNS_PATH}/${runId}`;
  return { runId, correlationId: runId, status: 'queued', statusCode: 202, statusUrl, created: Date.now() };
}

export function sendAsyncStarted(res: Response, runId: string): void {
  const body = asyncStartedBody(runId);
  res.status(202).location(body.statusUrl).json(body);
}
