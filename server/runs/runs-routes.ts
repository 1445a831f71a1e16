/**
 * The run history over HTTP, as `shared/api/runs` defines it: the list (filters, paging), one run with its
 * steps, cancel, and re-run (202 with the new run's id). A user sees their own runs, an admin every run;
 * another user's run id answers 404 like an unknown one.
 */
import { Router, type RequestHandler } from 'express';
import { cancelRun, getRun, listRuns, rerunRun, type ListRunsQuery } from '../../shared/api';
import { PipeworkError } from '../../shared/errors';
import { sendAsyncStarted } from '../http/async-answer';
import { serveEndpoint } from '../http/endpoint-route';
import { CLIENT_HEADER } from '../http/request-trigger';
import type { ServerServices } from '../services';
import { rerun } from './rerun';
import type { RunFilter } from './run-store';

/** The first this many characters of `q` are searched for. */
const MAX_SEARCH_TEXT = 200;
const DEFAULT_PAGE = 50;

function time(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(n)) {
    throw new PipeworkError('PARAM_INVALID', `'${name}' must be epoch milliseconds or an ISO date.`, {
      parameter: name,
    });
  }
  return n;
}

/** The store's filter from the list's (checked) query. */
export function filterOf(query: ListRunsQuery): RunFilter {
  return {
    pipelineKey: query.pipeline || undefined,
    status: query.status || undefined,
    trigger: query.trigger || undefined,
    username: query.user || undefined,
    from: time(query.from, 'from'),
    to: time(query.to, 'to'),
    text: query.q?.slice(0, MAX_SEARCH_TEXT) || undefined,
    parentId: query.parent || undefined,
    limit: query.limit || DEFAULT_PAGE,
    offset: query.offset ?? 0,
  };
}

/** The routes, behind the authentication (`caller`). */
export function runsRoutes(services: ServerServices, caller: RequestHandler): Router {
  const router = Router();
  serveEndpoint(router, listRuns, [caller], async ({ query, res }) => {
    const filter = filterOf(query);
    const { runs, total } = await services.runs.list(res.locals.principal, filter);
    return { runs, total, limit: filter.limit, offset: filter.offset };
  });
  serveEndpoint(router, getRun, [caller], ({ params, res }) =>
    services.runs.get(res.locals.principal, params.id),
  );
  serveEndpoint(router, cancelRun, [caller], ({ params, res }) =>
    services.runs.cancel(res.locals.principal, params.id),
  );
  serveEndpoint(
    router,
    rerunRun,
    [caller],
    async ({ params, query, body, req, res }) => {
      const { runId } = await rerun(services, res.locals.principal, params.id, {
        fromFailedStep: body.fromFailedStep === true || query.from === 'failed',
        pipeline: body.pipeline,
        form: body.form,
        trigger:
          req.headers[CLIENT_HEADER] === 'cli' ? 'cli' : query.source === 'workbench' ? 'workbench' : 'http',
      });
      sendAsyncStarted(res, runId);
      return undefined;
    },
    { maxBodyBytes: services.config.limits.pipelineBodyBytes * 2 },
  );
  return router;
}
