/** A small fetch wrapper for integration tests: status, headers and the body read as the response says. */

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
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body,
  });
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}
