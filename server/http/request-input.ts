/** Turns an HTTP request into a command's parameters and input body, whichever way the client sent them. */
import type { Request } from 'express';
import type { CommandContract } from '../../shared/commands';
import type { JsonSchema } from '../../shared/commands';
import { PipeworkError } from '../../shared/errors';
import { parseJsonBody } from './json-body';
import { isMultipart, readContentCollection } from './multipart';
import { readBody } from './read-body';
import { hasRawBody, readUpload } from './raw-upload';
import type { UploadSpool } from './upload-spool';

export interface CommandRequest {
  params: Record<string, unknown>;
  input: unknown;
}

type RawParams = Record<string, string | string[] | undefined>;

function typesOf(schema: JsonSchema | undefined): string[] {
  if (!schema?.type) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * Query and form values arrive as text: a repeated name becomes a list (only for list parameters),
 * and text given to a list or map parameter is read as JSON when it looks like JSON.
 */
export function normalizeParams(raw: RawParams, contract: CommandContract): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const types = typesOf(contract.parameters[name]);
    if (Array.isArray(value)) {
      if (!types.includes('array')) {
        throw new PipeworkError(
          'PARAM_INVALID',
          `Parameter '${name}' is given ${value.length} times but takes one value.`,
          {
            commandName: contract.name,
            parameter: name,
          },
        );
      }
      params[name] = value;
      continue;
    }
    const looksJson = /^\s*[[{]/.test(value);
    if (looksJson && (types.includes('array') || types.includes('object'))) {
      params[name] = parseJsonBody(value);
    } else {
      params[name] = types.includes('array') && !types.includes('string') ? [value] : value;
    }
  }
  return params;
}

/** Reads `a=1&b=2` (form body), keeping repeated names as lists. */
export function parseForm(text: string): RawParams {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = out[key];
    out[key] =
      existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

function mergeParams(query: RawParams, form: RawParams): RawParams {
  const merged: RawParams = { ...query };
  for (const [key, value] of Object.entries(form)) {
    const existing = merged[key];
    if (existing === undefined) merged[key] = value;
    else merged[key] = [...[existing].flat(), ...[value ?? []].flat()];
  }
  return merged;
}

function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function fileNameOf(req: Request): string | undefined {
  const disposition = req.headers['content-disposition'];
  return disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
}

/**
 * A JSON object body's fields that name declared parameters fill the parameters the query leaves out, as the
 * real product's service client sends them (`iam.token` with `{"username": ..., "password": ...}`). The
 * body stays the input too.
 */
export function withBodyFields(
  params: Record<string, unknown>,
  body: unknown,
  contract: CommandContract,
): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return params;
  const filled = { ...params };
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (Object.hasOwn(contract.parameters, name) && filled[name] === undefined && value !== null) {
      filled[name] = value;
    }
  }
  return filled;
}

/** What reading a command's request may use: its limits and the request's upload spool. */
export interface CommandRequestOptions {
  /** Buffered bodies (JSON, text, form). */
  bodyLimit: number;
  /** One streamed upload (a raw body, a multipart file part). */
  uploadLimit: number;
  spool: UploadSpool;
}

/** True for the bodies read whole into memory as text (JSON, YAML, text, forms); every other type is an upload. */
export function isBufferedType(type: string): boolean {
  return (
    type === '' ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/x-www-form-urlencoded' ||
    type.startsWith('text/') ||
    type === 'application/yaml' ||
    type === 'application/x-yaml'
  );
}

/**
 * GET: parameters from the query. POST: a form body adds parameters; multipart `file` parts become a content
 * collection (other parts parameters); JSON is parsed, text is text; any other body is an upload streamed
 * into a content object with its mime type (and the file name of its `Content-Disposition`).
 */
export async function readCommandRequest(
  req: Request,
  contract: CommandContract,
  options: CommandRequestOptions,
): Promise<CommandRequest> {
  const query = req.query as RawParams;
  if (req.method !== 'POST') return { params: normalizeParams(query, contract), input: null };
  if (isMultipart(req)) {
    const { files, fields } = await readContentCollection(req, options.spool, options.uploadLimit);
    return { params: normalizeParams(mergeParams(query, fields), contract), input: files };
  }
  const type = mediaType(req);
  if (!isBufferedType(type)) {
    const params = normalizeParams(query, contract);
    if (!hasRawBody(req)) return { params, input: null };
    const input = await readUpload(req, options.spool, options.uploadLimit, type, fileNameOf(req));
    return { params, input };
  }
  const bytes = await readBody(req, options.bodyLimit);
  if (type === 'application/x-www-form-urlencoded') {
    return {
      params: normalizeParams(mergeParams(query, parseForm(bytes.toString('utf8'))), contract),
      input: null,
    };
  }
  const params = normalizeParams(query, contract);
  if (bytes.length === 0) return { params, input: null };
  if (type === 'application/json' || type.endsWith('+json')) {
    const input = parseJsonBody(bytes.toString('utf8'));
    return { params: withBodyFields(params, input, contract), input };
  }
  return { params, input: bytes.toString('utf8') };
}
