/** A small fetch wrapper for integration tests: status, headers and the body read as the response says. */
import { isReadOnly } from '../../shared/commands';
import { serverCommands } from '../commands';

/** Commands that write: GET refuses them (browser-request-guard.ts). */
const WRITES = new Set(serverCommands.filter((c) => !isReadOnly(c.contract)).map((c) => c.contract.name));
const COMMAND_IN_PATH = /^\/api\/v3\/(?:command[/:]|pipe:)([^/?]+)/;

/**
 * The method when the test gives none: GET without a body, POST with one; a command that writes, called with
 * its parameters in the query and no body, goes over POST (the form the server accepts for it).
 */
function defaultMethod(path: string, body: unknown): string {
  if (body !== undefined) return 'POST';
  const name = COMMAND_IN_PATH.exec(path)?.[1];
  let decoded: string | undefined;
  try {
    decoded = name === undefined ? undefined : decodeURIComponent(name);
  } catch {
    decoded = undefined; // a path that is not valid percent-encoding: the server's answer is what the test wants
  }
  return decoded !== undefined && WRITES.has(decoded) ? 'POST' : 'GET';
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary response shapes
}

export interface RequestOptions {
  method?: string;
  auth?: string;
  type?: string;
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export async function http(
  baseUrl: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = options.auth;
  if (options.type) headers['content-type'] = options.type;
  const response = await fetch(baseUrl + path, {
    method: options.method ?? defaultMethod(path, options.body),
    headers,
    body: options.body,
  });
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

/** Stores a YAML pipeline under `key` as the real clients do (`PUT /api/v3/pipeline:<key>`). */
export function putPipeline(baseUrl: string, key: string, yaml: string, auth: string): Promise<HttpResponse> {
  return http(baseUrl, `/api/v3/pipeline:${key}`, {
    auth,
    method: 'PUT',
    type: 'application/yaml',
    body: yaml,
  });
}
