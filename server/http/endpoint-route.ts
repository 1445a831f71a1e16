/**
 * Serves an endpoint of `shared/api`: registers its method and path, checks the query and the JSON body against
 * its schemas before the handler runs (a clear PARAM_INVALID or BAD_REQUEST in the contract's error shape:
 * an unknown name, a wrong type, a value out of range), and answers the handler's result as JSON.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { BodyOf, Endpoint, MembersSchema, ParamsOf, QueryOf, ResponseOf } from '../../shared/api';
import { PipeworkError } from '../../shared/errors';
import { parseJsonBody } from './json-body';
import { readBody } from './read-body';

/** Query values are text: numbers and booleans are read from it (`limit=5`). A JSON body has its own types. */
const queryAjv = new Ajv({ allErrors: false, coerceTypes: true, strict: false });
const bodyAjv = new Ajv({ allErrors: false, strict: false });
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface EndpointCall<E> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  req: Request;
  res: Response;
}

/** What a handler answers: the response (sent as JSON), or undefined when it answered itself. */
export type EndpointHandler<E> = (call: EndpointCall<E>) => Promise<ResponseOf<E> | undefined>;

type Where = 'parameter' | 'field';
const compiled = { parameter: new WeakMap<MembersSchema, ValidateFunction>(), field: new WeakMap() };

function validatorOf(schema: MembersSchema, where: Where): ValidateFunction {
  let validate = compiled[where].get(schema);
  if (!validate) {
    const ajv = where === 'parameter' ? queryAjv : bodyAjv;
    validate = ajv.compile({ ...schema, additionalProperties: false });
    compiled[where].set(schema, validate);
  }
  return validate;
}

function problemOf(error: ErrorObject, summary: string, schema: MembersSchema, where: Where): PipeworkError {
  if (error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty: string }).additionalProperty);
    const known = Object.keys(schema.properties);
    return new PipeworkError(
      'PARAM_INVALID',
      `Unknown ${where} '${name}' for ${summary}; ` +
        (known.length === 0 ? 'it takes none.' : `it takes ${known.join(', ')}.`),
      { parameter: name },
    );
  }
  if (error.keyword === 'required') {
    const name = String((error.params as { missingProperty: string }).missingProperty);
    return new PipeworkError('PARAM_INVALID', `'${name}' is required for ${summary}.`, { parameter: name });
  }
  const name = error.instancePath.split('/')[1] ?? '';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const rule = allowed
    ? `must be one of ${allowed.filter((v) => v !== '').join(', ')}`
    : (error.message ?? 'is not valid');
  return new PipeworkError('PARAM_INVALID', `'${name}' ${rule}.`, { parameter: name });
}

/** The members after their schema's check (numbers read from text), or the first problem. */
function checked(value: unknown, schema: MembersSchema, summary: string, where: Where): unknown {
  const validate = validatorOf(schema, where);
  if (!validate(value)) throw problemOf(validate.errors![0], summary, schema, where);
  return value;
}

/** The query: each name once, as text (a repeated name is refused, not silently the first or last). */
function queryOf(req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (typeof value !== 'string') {
      throw new PipeworkError('PARAM_INVALID', `'${name}' must be given once, as text.`, { parameter: name });
    }
    out[name] = value;
  }
  return out;
}

/** What Express routes an endpoint by: its pattern, or its path and aliases. */
export function routeOf(endpoint: Endpoint<unknown, unknown, unknown, unknown>): RegExp | string[] {
  return endpoint.pattern ?? [endpoint.path, ...(endpoint.aliases ?? [])];
}

/**
 * The request's query checked against the endpoint's schema (each name once), for routes that answer or read
 * a stream themselves and so keep their own handler.
 */
export function checkedQuery<E extends Endpoint<unknown, unknown, unknown, unknown>>(
  endpoint: E,
  req: Request,
): QueryOf<E> {
  const query = queryOf(req);
  return (
    endpoint.query ? checked(query, endpoint.query, endpoint.summary, 'parameter') : query
  ) as QueryOf<E>;
}

async function bodyOf(
  req: Request,
  endpoint: Endpoint<unknown, unknown, unknown, unknown>,
  maxBytes: number,
): Promise<unknown> {
  const schema = endpoint.body;
  if (!schema) return {};
  const raw = (await readBody(req, maxBytes)).toString('utf8').trim();
  const body = raw === '' ? {} : parseJsonBody(raw);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new PipeworkError('BAD_REQUEST', `The body of ${endpoint.summary} must be a JSON object.`);
  }
  return checked(body, schema, endpoint.summary, 'field');
}

export interface ServeOptions {
  /** The largest body read, where it depends on the configuration (else the endpoint's own bound). */
  maxBodyBytes?: number;
}

/** Registers the endpoint on the router, behind `before` (authentication, ...). */
export function serveEndpoint<E extends Endpoint<unknown, unknown, unknown, unknown>>(
  router: Router,
  endpoint: E,
  before: RequestHandler[],
  handler: EndpointHandler<E>,
  options: ServeOptions = {},
): void {
  const maxBodyBytes = options.maxBodyBytes ?? endpoint.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[method](routeOf(endpoint), ...before, async (req: Request, res: Response) => {
    const query = checkedQuery(endpoint, req);
    const body = await bodyOf(req, endpoint, maxBodyBytes);
    const answer = await handler({
      params: req.params as ParamsOf<E>,
      query,
      body: body as BodyOf<E>,
      req,
      res,
    });
    if (answer !== undefined && !res.headersSent) res.json(answer);
  });
}
