/** Calls the Pipework API as the signed-in user: Bearer token, one renewal on 401, the contract's errors. */
import { ApiError, apiErrorOf } from './api-error';
import { accessToken, expire, renew } from './session';

export interface CommandOptions {
  /** The command's input: an object or list is sent as JSON; text, Blob, FormData... as they are. */
  body?: BodyInit | object;
  contentType?: string;
  signal?: AbortSignal;
  /** GET by default, POST when there is a body. With POST and no body the parameters go in a form body. */
  method?: string;
}

export type CommandParams = Record<string, unknown>;

export interface ApiClient {
  /** fetch() with the Bearer token; renews the token once on 401; a second 401 returns to sign-in. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Runs `/api/v3/command/<name>`: JSON answers parsed, text as text, bytes as a Blob, an empty untyped answer as null. */
  command<T = unknown>(name: string, params?: CommandParams, options?: CommandOptions): Promise<T>;
  /** The current access token, for EventSource or streamed requests. */
  accessToken(): string | null;
}

/** Tells the server not to send a Basic challenge (the browser would show its own password dialog). */
const SCRIPT_HEADER = ['x-requested-with', 'XMLHttpRequest'] as const;

function withToken(init: RequestInit | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  headers.set(...SCRIPT_HEADER);
  const token = accessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}

async function authorizedFetch(path: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(path, withToken(init));
  if (response.status !== 401) return response;
  if (await renew()) {
    const again = await fetch(path, withToken(init));
    if (again.status !== 401) return again;
  }
  expire();
  return response;
}

function paramText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function encodeParams(params: CommandParams | undefined): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined) search.append(name, paramText(value));
  }
  return search;
}

function isBodyInit(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof ReadableStream
  );
}

function requestOf(
  params: CommandParams | undefined,
  options: CommandOptions,
): { query: string; init: RequestInit } {
  const search = encodeParams(params);
  const headers = new Headers();
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (isBodyInit(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers.set('content-type', 'application/json');
    }
    if (options.contentType) headers.set('content-type', options.contentType);
  }
  const method = (options.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
  if (method !== 'GET' && body === undefined && [...search.keys()].length > 0) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    return { query: '', init: { method, headers, body: search, signal: options.signal } };
  }
  const query = search.toString();
  return { query: query ? `?${query}` : '', init: { method, headers, body, signal: options.signal } };
}

/** Reads a successful answer by its type. */
export async function readAnswer(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  // A null result is 200 with an empty body and no type (204 from older servers).
  if (response.status === 204 || (type === '' && response.headers.get('content-length') === '0')) return null;
  if (/json/.test(type)) return response.json();
  if (type.startsWith('text/') || type === '') return response.text();
  return response.blob();
}

async function command<T>(name: string, params?: CommandParams, options: CommandOptions = {}): Promise<T> {
  const { query, init } = requestOf(params, options);
  const response = await authorizedFetch(`/api/v3/command/${encodeURIComponent(name)}${query}`, init);
  if (!response.ok) throw await apiErrorOf(response);
  return (await readAnswer(response)) as T;
}

export const apiClient: ApiClient = { fetch: authorizedFetch, command, accessToken };

export { ApiError };
