/**
 * Resolving a URI for a command (`resolve`, `content.get`, `call`, `mail.send` attachments and templates,
 * `transform`, `script.run`): the text read by the one parser (`shared/uri`), each form loaded as the caller.
 * A property the caller may not read is FORBIDDEN before anything of it is read; `$uri:pipeline:` runs the
 * stored pipeline as the caller (nesting and time limits of `call`); http(s) goes through the outbound guard.
 */
import type { CommandContext } from '../../shared/commands';
import { PipeworkError, isPipeworkError } from '../../shared/errors';
import { applyUriFilter } from '../../shared/pel/utilities';
import { decodePropertyValue } from '../../shared/property';
import { type CustomUri, type CustomUriScheme, parseCustomUri } from '../../shared/uri/custom-uri';
import { decodeResponseBody } from '../commands/http/response-body';
import { runStoredPipeline } from '../commands/flow/run-stored-pipeline';
import { PEL_DRIVE_LIMIT } from '../drive/drive-uri-resolver';
import { DEFAULT_HTTP_CLIENT_CONFIG, outboundHttpFor } from '../http-client';
import type { ServerServices } from '../services';
import { isBinaryContent } from '../../shared/values';
import { uriResolverFor } from './pel-uri-resolver';
import { propertyAsMap } from './property-as-map';

type UriContext = CommandContext<ServerServices>;

/** Parses a URI given in `parameter`; PARAM_INVALID naming the parameter when it is malformed or not allowed. */
export function parseUriParameter(
  text: string,
  parameter: string,
  allowed?: readonly CustomUriScheme[],
): CustomUri {
  const parsed = parseCustomUri(text);
  if (!parsed.ok)
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}': ${parsed.message}.`, { parameter });
  if (allowed && !allowed.includes(parsed.uri.scheme))
    throw new PipeworkError(
      'PARAM_INVALID',
      `Parameter '${parameter}' takes ${allowed.map((s) => (s === 'http' ? 'http(s)://' : `$uri:${s}:`)).join(', ')}, not '${parsed.uri.scheme}'.`,
      { parameter },
    );
  return parsed.uri;
}

function filterOf(target: unknown, expression: string, parameter: string): unknown {
  try {
    return applyUriFilter(target, expression);
  } catch (error) {
    if (isPipeworkError(error)) throw error.withDetails({ parameter });
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}': ${(error as Error).message}.`, {
      parameter,
    });
  }
}

async function resolveProperty(
  ctx: UriContext,
  uri: Extract<CustomUri, { scheme: 'property' }>,
  parameter: string,
) {
  const { properties } = ctx.services;
  const property = await properties.get(ctx.principal, uri.key);
  if (uri.attribute !== undefined) {
    const attachments = /attachments/.test(uri.attribute)
      ? await properties.attachments.list(ctx.principal, uri.key)
      : [];
    return filterOf(propertyAsMap(property, attachments), uri.attribute, parameter);
  }
  const value = decodePropertyValue(property);
  return uri.field === undefined ? value : filterOf(value, uri.field, parameter);
}

async function resolveHttp(ctx: UriContext, url: string): Promise<unknown> {
  const config = ctx.services.config.httpClient ?? DEFAULT_HTTP_CLIENT_CONFIG;
  const response = await outboundHttpFor(config).send({
    method: 'GET',
    url,
    headers: { accept: '*/*', 'user-agent': 'Pipework' },
    timeoutMillis: config.timeoutMillis,
    signal: ctx.abortSignal(),
  });
  if (response.status >= 400)
    throw new PipeworkError(
      'UPSTREAM_FAILED',
      `${new URL(response.url).origin} answered ${response.status}.`,
      {
        status: response.status,
      },
    );
  return decodeResponseBody(response.body, response.headers['content-type']);
}

/** Loads what a parsed URI points to, as the caller. */
export async function resolveParsedUri(ctx: UriContext, uri: CustomUri, parameter: string): Promise<unknown> {
  switch (uri.scheme) {
    case 'property':
      return resolveProperty(ctx, uri, parameter);
    case 'pipeline':
      return runStoredPipeline(ctx, uri.key, {}, parameter);
    case 'drive':
      return ctx.services.drive.read(ctx.principal, uri.path, PEL_DRIVE_LIMIT);
    case 'user': {
      const user = uriResolverFor(ctx.principal, ctx.services).user!(uri.by, uri.value);
      if (user === undefined)
        throw new PipeworkError(
          'NOT_FOUND',
          `The user '${uri.value || 'current'}' does not exist or you may not see it.`,
          {
            parameter,
          },
        );
      return user;
    }
    case 'http':
      return resolveHttp(ctx, uri.url);
  }
}

/** What a URI gave, as template text: text as it is, bytes as UTF-8, null as nothing, anything else as JSON. */
export function uriValueAsText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isBinaryContent(value)) return new TextDecoder().decode(value.data);
  return JSON.stringify(value);
}

/** Parses and loads a URI given in `parameter`, as the caller. */
export function resolveUriParameter(
  ctx: UriContext,
  text: string,
  parameter: string,
  allowed?: readonly CustomUriScheme[],
): Promise<unknown> {
  return resolveParsedUri(ctx, parseUriParameter(text, parameter, allowed), parameter);
}
