/**
 * An HTTP endpoint of the API, written once: its method and path, what its query and JSON body may hold (as
 * JSON Schema, checked by the server at its edge: server/http/endpoint-route.ts), and the types of what goes
 * in and comes out. The server's route, the workbench and the CLI call through the same definition.
 */
import type { JsonSchema } from '../commands/json-schema';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An object schema of named members (a query's parameters or a body's fields). */
export interface MembersSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
}

export interface Endpoint<Params, Query, Body, Response> {
  method: HttpMethod;
  /** Express-style, e.g. `/api/v3/runs/:id`. */
  path: string;
  /** Other paths the server answers the same (older or real-product spellings). */
  aliases?: string[];
  /**
   * What the server routes by where `path` cannot say it in Express's words (a key with slashes after a
   * colon: `/api/v3/pipeline:<key>`); `path` then still builds the URL of a call.
   */
  pattern?: RegExp;
  /** What it is for, in a few words: error messages name it (`Unknown parameter 'x' for <summary>`). */
  summary: string;
  /** The query parameters; any other name is refused (a misspelt filter must not pass as no filter). */
  query?: MembersSchema;
  /** The JSON body; absent when the endpoint takes none. An empty body reads as `{}`. */
  body?: MembersSchema;
  /** The largest body read, in bytes. */
  maxBodyBytes?: number;
  /** Types only (never set): what the endpoint takes and answers. */
  readonly types?: { params: Params; query: Query; body: Body; response: Response };
}

export type ParamsOf<E> = E extends Endpoint<infer P, unknown, unknown, unknown> ? P : never;
export type QueryOf<E> = E extends Endpoint<unknown, infer Q, unknown, unknown> ? Q : never;
export type BodyOf<E> = E extends Endpoint<unknown, unknown, infer B, unknown> ? B : never;
export type ResponseOf<E> = E extends Endpoint<unknown, unknown, unknown, infer R> ? R : never;

/** No path parameters, no query or no body. */
export type None = Record<string, never>;

export function defineEndpoint<Params = None, Query = None, Body = None, Response = unknown>(
  endpoint: Omit<Endpoint<Params, Query, Body, Response>, 'types'>,
): Endpoint<Params, Query, Body, Response> {
  return endpoint;
}

/** The URL of a call: path parameters filled in (encoded), the query's given values appended. */
export function endpointUrl<Params, Query>(
  endpoint: Endpoint<Params, Query, unknown, unknown>,
  params: Params,
  query?: Partial<Query>,
): string {
  const path = endpoint.path.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    const value = (params as Record<string, unknown>)[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.path}: '${name}' is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}
