/** The contract's error shape as an exception: `status` is the HTTP status, `value` the body's `value`. */

export interface ApiErrorValue {
  code: string;
  message: string;
  line?: number;
  column?: number;
  commandName?: string;
  commandIndex?: number;
  parameter?: string;
  traceId?: string;
  trace?: unknown[];
  expectedVersion?: number;
  actualVersion?: number;
  [detail: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly value: ApiErrorValue,
  ) {
    super(value.message);
    this.name = 'ApiError';
  }
}

/** Reads an error response into an ApiError (the contract's shape, or a readable stand-in for anything else). */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { value?: ApiErrorValue; error?: string; error_description?: string };
    if (body?.value?.code) return new ApiError(response.status, body.value);
    if (body?.error)
      return new ApiError(response.status, {
        code: body.error,
        message: body.error_description ?? body.error,
      });
  } catch {
    // not JSON: fall through
  }
  return new ApiError(response.status, {
    code: `HTTP_${response.status}`,
    message: text || response.statusText,
  });
}

/** One readable line for any failure: the contract's code and message for API errors. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.value.code}: ${error.value.message}`;
  return error instanceof Error ? error.message : String(error);
}
