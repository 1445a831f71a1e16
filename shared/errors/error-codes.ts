/** The one catalogue of error codes: each code's HTTP status. The HTTP contract (docs/api.md) is generated from it. */

export const ERROR_CODES = {
  PIPELINE_SYNTAX: {
    status: 400,
    summary: 'The YAML, JSON or URI cannot be parsed, or a section has the wrong shape.',
  },
  PARAM_INVALID: {
    status: 400,
    summary: "A parameter is missing, unknown, or of the wrong type for the command's schema.",
  },
  PEL_SYNTAX: { status: 400, summary: 'An expression cannot be parsed.' },
  PEL_EVAL: { status: 400, summary: 'An expression fails when evaluated.' },
  ASSERTION_FAILED: { status: 400, summary: '`test` or `assert` failed, or the pipeline raised an `error`.' },
  KEY_INVALID: { status: 400, summary: 'A property key breaks the key rules.' },
  BAD_REQUEST: { status: 400, summary: 'The request is malformed in a way no other code describes.' },
  UNAUTHENTICATED: { status: 401, summary: 'No or bad credentials.' },
  FORBIDDEN: { status: 403, summary: 'Authenticated, but the permission or the folder rule denies it.' },
  COMMAND_NOT_FOUND: { status: 404, summary: 'No command has this name.' },
  PROPERTY_NOT_FOUND: { status: 404, summary: 'No property has this key (or the caller may not see it).' },
  NOT_FOUND: { status: 404, summary: 'No such resource.' },
  METHOD_NOT_ALLOWED: { status: 405, summary: 'The path exists but not for this HTTP method.' },
  REQUEST_TIMEOUT: {
    status: 408,
    summary: 'The client sent its request headers or body too slowly (see the listener limits).',
  },
  PROPERTY_EXISTS: { status: 409, summary: 'Create of an existing key.' },
  CONFLICT: { status: 409, summary: 'A version mismatch or another conflicting state.' },
  PAYLOAD_TOO_LARGE: { status: 413, summary: 'A buffered body over its limit.' },
  LENGTH_REQUIRED: {
    status: 411,
    summary: 'An upload without Content-Length where its length must be declared.',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, summary: 'The content type is not accepted here.' },
  RANGE_NOT_SATISFIABLE: { status: 416, summary: 'The requested byte range lies outside the file.' },
  LIMIT_EXCEEDED: {
    status: 422,
    summary: 'A pipeline, expression or script ran past a step, time, size or memory limit.',
  },
  TOO_MANY_REQUESTS: { status: 429, summary: 'Too many attempts; try again later.' },
  HEADERS_TOO_LARGE: { status: 431, summary: 'The request headers are larger than the server accepts.' },
  INTERNAL: { status: 500, summary: 'A bug: logged with its traceId; the body never holds a stack trace.' },
  UPSTREAM_FAILED: { status: 502, summary: 'An outbound call (http, mail) failed.' },
  UNAVAILABLE: {
    status: 503,
    summary: 'The database cannot be reached for the moment (PostgreSQL down or unreachable); retry later.',
  },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The status text that goes with each status, as the error body's `statusMessage`. */
export const STATUS_MESSAGES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
