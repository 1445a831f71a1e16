/** What the http.* commands share: their parameters, the request they build and how they answer. */
import {
  defineCommand,
  type CommandContext,
  type CommandDefinition,
  type JsonSchema,
} from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';
import { DEFAULT_HTTP_CLIENT_CONFIG, outboundHttpFor } from '../../http-client';
import type { ServerServices } from '../../services';
import { parseRequestHeaders } from './request-headers';
import { decodeResponseBody } from './response-body';
import { runMaskOf } from '../../runs/run-scope';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type HttpContext = CommandContext<ServerServices>;

const PARAMETERS: Record<string, JsonSchema> = {
  url: { type: 'string', description: 'The URL to call (http or https).' },
  headers: {
    type: ['string', 'object', 'array'],
    description:
      'Headers of the request: a map, a list of "Name: value" texts, or a comma-separated text like "name1: value1, name2: value2".',
  },
  body: {
    description:
      'The request body (if the method has one). When absent, the input is sent; when null, no body. Objects are sent as JSON, text that is JSON as application/json, other text as text/plain, bytes with their mime type.',
  },
  ignoreErrorStatus: {
    type: 'boolean',
    default: false,
    description:
      'When true, a 4xx or 5xx answer is returned like any other instead of failing with UPSTREAM_FAILED.',
  },
  includeResponse: {
    type: 'boolean',
    default: false,
    description: 'When true, the output is { status, headers, body } instead of the body alone.',
  },
  secret: {
    type: 'string',
    minLength: 1,
    description:
      'The name of a stored secret sent with the request: bearer as Authorization: Bearer, header as its header, ' +
      'username-password as Basic authentication. It wins over the same header in `headers`; its value is never shown.',
  },
  credentials: { type: 'string', minLength: 1, description: 'Deprecated: use secret (the same).' },
  timeout: {
    type: 'integer',
    minimum: 1,
    description:
      'Milliseconds the whole call (with redirects) may take; at most the configured PIPEWORK_HTTP_TIMEOUT_MILLIS.',
  },
};

interface EncodedBody {
  bytes: Uint8Array;
  contentType: string;
}

function encodeBody(value: unknown): EncodedBody | undefined {
  if (value === undefined || value === null) return undefined;
  if (isBinaryContent(value)) return { bytes: value.data, contentType: value.mimeType };
  if (value instanceof Uint8Array) return { bytes: value, contentType: 'application/octet-stream' };
  if (typeof value === 'string') {
    let json = false;
    try {
      const parsed: unknown = JSON.parse(value);
      json = parsed !== null && typeof parsed === 'object';
    } catch {
      json = false;
    }
    const contentType = json ? 'application/json' : 'text/plain; charset=utf-8';
    return { bytes: new TextEncoder().encode(value), contentType };
  }
  return { bytes: new TextEncoder().encode(JSON.stringify(value)), contentType: 'application/json' };
}

/** The body to send: `body` when given (null: none), else the input for methods that carry one. */
function requestBody(ctx: HttpContext, method: HttpMethod): EncodedBody | undefined {
  if (method === 'GET') return undefined;
  if (Object.hasOwn(ctx.params, 'body')) return encodeBody(ctx.params.body);
  return method === 'DELETE' ? undefined : encodeBody(ctx.input);
}

function where(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url;
  }
}

/** Puts the named secret's header into `headers`; returns the header names that carry it. */
async function secretHeaders(ctx: HttpContext, headers: Record<string, string>): Promise<string[]> {
  const parameter = ctx.params.secret !== undefined ? 'secret' : 'credentials';
  const name = ctx.params[parameter];
  if (name === undefined) return [];
  if (!ctx.principal) throw new PipeworkError('UNAUTHENTICATED', 'A secret needs an authenticated caller.');
  const material = await ctx.services.secrets.use(
    runMaskOf(ctx.services),
    ctx.principal,
    String(name),
    parameter,
  );
  const set = (header: string, value: string): string[] => {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === header) delete headers[existing];
    headers[header] = value;
    return [header];
  };
  switch (material.format) {
    case 'bearer':
      return set('authorization', `Bearer ${material.token}`);
    case 'username-password':
      return set(
        'authorization',
        `Basic ${Buffer.from(`${material.username}:${material.password}`, 'utf8').toString('base64')}`,
      );
    case 'header':
      return set(material.name.toLowerCase(), material.value);
    case 'secret-text':
      throw new PipeworkError(
        'PARAM_INVALID',
        `Secret '${String(name)}' is secret-text: http.* takes bearer, header or username-password secrets.`,
        { parameter },
      );
  }
}

async function call(ctx: HttpContext, method: HttpMethod): Promise<unknown> {
  const config = ctx.services.config.httpClient ?? DEFAULT_HTTP_CLIENT_CONFIG;
  const headers: Record<string, string> = {
    accept: 'application/json, text/plain, */*',
    'user-agent': 'Pipework',
    ...parseRequestHeaders(ctx.params.headers),
  };
  const credentialHeaders = await secretHeaders(ctx, headers);
  const body = requestBody(ctx, method);
  if (body && headers['content-type'] === undefined) headers['content-type'] = body.contentType;
  const asked = typeof ctx.params.timeout === 'number' ? ctx.params.timeout : config.timeoutMillis;
  const response = await outboundHttpFor(config).send({
    method,
    url: String(ctx.params.url),
    headers,
    body: body?.bytes,
    timeoutMillis: Math.min(asked, config.timeoutMillis),
    signal: ctx.abortSignal(),
    credentialHeaders,
  });
  ctx.log('DEBUG', `${method} ${where(response.url)} answered ${response.status}`);
  const contentType = response.headers['content-type'];
  const decoded = decodeResponseBody(response.body, contentType, {
    disposition: response.headers['content-disposition'],
    url: response.url,
  });
  if (response.status >= 400 && ctx.params.ignoreErrorStatus !== true) {
    const text =
      typeof decoded === 'string' ? decoded : decoded === null ? '' : (JSON.stringify(decoded) ?? '');
    throw new PipeworkError(
      'UPSTREAM_FAILED',
      `${where(response.url)} answered ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`,
      { status: response.status },
    );
  }
  if (ctx.params.includeResponse === true) {
    return { status: response.status, headers: response.headers, body: decoded, url: response.url };
  }
  return decoded;
}

/** One http.<method> command. */
export function defineHttpCommand(method: HttpMethod, example: string): CommandDefinition<ServerServices> {
  const name = `http.${method.toLowerCase()}`;
  return defineCommand<ServerServices>(
    {
      name,
      summary: `Sends a ${method} request to the url and returns the answer: JSON parsed, text as text, other content as a content object (named by its Content-Disposition or the URL's last segment).`,
      description:
        'Loopback, private, link-local, CGNAT and cloud metadata addresses are refused (in every spelling, also ' +
        'behind a DNS name or a redirect) unless PIPEWORK_HTTP_ALLOW_HOSTS or PIPEWORK_HTTP_ALLOW_PRIVATE allow ' +
        'them. Redirects are followed (at most PIPEWORK_HTTP_MAX_REDIRECTS); the answer may hold at most ' +
        'PIPEWORK_HTTP_MAX_RESPONSE bytes. Nothing of the incoming request (its credentials included) is sent on.',
      parameters: PARAMETERS,
      required: ['url'],
      defaultParameter: 'url',
      input: 'any',
      output: 'any',
      // Even a GET reaches another system on the caller's behalf: never run from a browser's GET.
      effect: 'write',
      audience: 'developer',
      examples: [{ title: `Call another system with ${method}`, pipeline: example }],
    },
    (ctx) => call(ctx, method),
  );
}
