/** The answer to a request that started an async run: 202 with the run id and where to poll it. */
import type { Response } from 'express';

export const RUNS_PATH = '/api/v3/runs';

export function sendAsyncStarted(res: Response, runId: string): void {
  const statusUrl = `${RUNS_PATH}/${runId}`;
  res
    .status(202)
    .location(statusUrl)
    .json({ runId, correlationId: runId, status: 'queued', statusCode: 202, statusUrl, created: Date.now() });
}
