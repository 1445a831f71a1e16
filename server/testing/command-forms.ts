/** Calls one command the two ways a client can (query parameters, or a one-step JSON pipeline). */
import { http, type HttpResponse } from './http-client';

export type CommandForm = 'GET' | 'pipeline';

/** Query values are text: strings as they are, anything else as JSON. */
function query(params: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

export function callCommand(
  form: CommandForm,
  baseUrl: string,
  name: string,
  params: Record<string, unknown>,
  auth: string,
): Promise<HttpResponse> {
  // Parameters in the query: over GET for a command that reads, over POST without a body for one that
  // writes (`http` chooses: GET refuses writes).
  if (form === 'GET') return http(baseUrl, `/api/v3/command/${name}?${query(params)}`, { auth });
  return http(baseUrl, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ [name]: params }] }),
  });
}

/** The error code of an error response. */
export const codeOf = (response: HttpResponse) => response.json?.value?.code as string | undefined;
