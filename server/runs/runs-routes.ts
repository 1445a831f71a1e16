/**
 * The run history over HTTP: `GET /api/v3/runs` (filters, paging), `GET /api/v3/runs/<id>` (one run with its
 * steps), `POST /api/v3/runs/<id>/cancel`, `POST /api/v3/runs/<id>/rerun` (202 with the new run's id).
 * A user sees their own runs, an admin every run; another user's run id answers 404 like an unknown one.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { PipeworkError } from '../../shared/errors';
import { sendAsyncStarted, RUNS_PATH } from '../http/async-answer';
import { parseJsonBody } from '../http/json-body';
import { readBody } from '../http/read-body';
import { CLIENT_HEADER } from '../http/request-trigger';
import type { ServerServices } from '../services';
import { rerun, type RerunRequest } from './rerun';
import { RUN_STATUSES, type RunStatus } from './run-records';
import type { RunFilter } from './run-store';
import { RUN_TRIGGER_KINDS, type RunTriggerKind } from './run-trigger';

const MAX_PAGE = 500;

function invalid(parameter: string, message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter });
}

function text(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, `'${name}' must be given once, as text.`);
  return value;
}

function integer(req: Request, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = text(req, name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw invalid(name, `'${name}' must be a whole number from 0 to ${max}.`);
  return n;
}

function time(req: Request, name: string): number | undefined {
  const raw = text(req, name);
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(n)) throw invalid(name, `'${name}' must be epoch milliseconds or an ISO date.`);
  return n;
}

function oneOf<T extends string>(req: Request, name: string, allowed: readonly T[]): T | undefined {
  const raw = text(req, name);
  if (raw === undefined || raw === '') return undefined;
  if (!allowed.includes(raw as T)) throw invalid(name, `'${name}' must be one of ${allowed.join(', ')}.`);
  return raw as T;
}

const LIST_PARAMETERS = [
  'pipeline',
  'status',
  'trigger',
  'user',
  'from',
  'to',
  'q',
  'parent',
  'limit',
  'offset',
];

/**
 * The list's filter from the query: pipeline, status, trigger, user, from, to, q, parent, limit, offset. Any
 * other name is refused: a misspelt filter would otherwise answer every run as if it had matched.
 */
export function filterOf(req: Request): RunFilter {
  const unknown = Object.keys(req.query).find((name) => !LIST_PARAMETERS.includes(name));
  if (unknown !== undefined)
    throw invalid(
      unknown,
      `Unknown parameter '${unknown}' for the run list; it takes ${LIST_PARAMETERS.join(', ')}.`,
    );
  return {
    pipelineKey: text(req, 'pipeline') || undefined,
    status: oneOf<RunStatus>(req, 'status', RUN_STATUSES),
    trigger: oneOf<RunTriggerKind>(req, 'trigger', RUN_TRIGGER_KINDS),
    username: text(req, 'user') || undefined,
    from: time(req, 'from'),
    to: time(req, 'to'),
    text: text(req, 'q')?.slice(0, 200) || undefined,
    parentId: text(req, 'parent') || undefined,
    limit: integer(req, 'limit', 50, MAX_PAGE) || 50,
    offset: integer(req, 'offset', 0),
  };
}

async function rerunRequestOf(req: Request, limit: number): Promise<RerunRequest> {
  const raw = (await readBody(req, limit)).toString('utf8').trim();
  const body = raw === '' ? {} : parseJsonBody(raw);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new PipeworkError('BAD_REQUEST', 'The body must be a JSON object (or empty).');
  }
  const { fromFailedStep, pipeline, form } = body as Record<string, unknown>;
  if (fromFailedStep !== undefined && typeof fromFailedStep !== 'boolean') {
    throw invalid('fromFailedStep', "'fromFailedStep' must be true or false.");
  }
  if (pipeline !== undefined && typeof pipeline !== 'string')
    throw invalid('pipeline', "'pipeline' must be text.");
  if (form !== undefined && form !== 'yaml' && form !== 'json' && form !== 'uri') {
    throw invalid('form', "'form' must be yaml, json or uri.");
  }
  const source = text(req, 'source');
  return {
    fromFailedStep: fromFailedStep === true || req.query.from === 'failed',
    pipeline: pipeline as string | undefined,
    form: form as RerunRequest['form'],
    trigger: req.headers[CLIENT_HEADER] === 'cli' ? 'cli' : source === 'workbench' ? 'workbench' : 'http',
  };
}

/** The routes, behind the authentication (`caller`); Express 5 hands a rejected handler to the error handler. */
export function runsRoutes(services: ServerServices, caller: RequestHandler): Router {
  const router = Router();
  router.get(RUNS_PATH, caller, async (req, res) => {
    const filter = filterOf(req);
    const { runs, total } = await services.runs.list(res.locals.principal, filter);
    res.json({ runs, total, limit: filter.limit, offset: filter.offset });
  });
  router.get(`${RUNS_PATH}/:id`, caller, async (req, res) => {
    res.json(await services.runs.get(res.locals.principal, String(req.params.id)));
  });
  router.post(`${RUNS_PATH}/:id/cancel`, caller, async (req, res) => {
    res.json(await services.runs.cancel(res.locals.principal, String(req.params.id)));
  });
  router.post(`${RUNS_PATH}/:id/rerun`, caller, async (req, res) => {
    const request = await rerunRequestOf(req, services.config.limits.pipelineBodyBytes * 2);
    const { runId } = await rerun(services, res.locals.principal, String(req.params.id), request);
    sendAsyncStarted(res, runId);
  });
  return router;
}
