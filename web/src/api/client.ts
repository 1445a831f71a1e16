/** Calls the Pipework API and turns its error bodies into ApiError with the contract's code and position. */
import type { Session } from './session';

export interface ApiErrorValue {
  code: string;
  message: string;
  line?: number;
  column?: number;
  commandName?: string;
  commandIndex?: number;
  traceId?: string;
  trace?: unknown[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly value: ApiErrorValue,
  ) {
    super(value.message);
  }
}

export interface ApiResult {
  status: number;
  contentType: string;
  data: unknown;
}

/** Tells the server not to send a Basic challenge, which would make the browser show its own password dialog. */
const SCRIPT_HEADERS = { 'x-requested-with': 'XMLHttpRequest' };

async function read(response: Response): Promise<ApiResult> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status === 204) return { status: 204, contentType, data: null };
  const data: unknown = contentType.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const value = (data as { value?: ApiErrorValue } | null)?.value;
    throw new ApiError(response.status, value ?? { code: 'HTTP_' + response.status, message: String(data) });
  }
  return { status: response.status, contentType, data };
}

export async function runPipelineText(session: Session, yaml: string, trace: boolean): Promise<ApiResult> {
  const response = await fetch(`/api/v3/pipeline${trace ? '?trace=true' : ''}`, {
    method: 'POST',
    headers: { ...SCRIPT_HEADERS, authorization: session.authorization, 'content-type': 'application/yaml' },
    body: yaml,
  });
  return read(response);
}

export async function callCommand(authorization: string, name: string): Promise<ApiResult> {
  const response = await fetch(`/api/v3/command/${encodeURIComponent(name)}`, {
    headers: { ...SCRIPT_HEADERS, authorization },
  });
  return read(response);
}
