/** What the drive.* commands share: the service, the path parameters, and how a body becomes file content. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent, isBinaryContent, singleContentOf, stringifyBounded } from '../../../shared/values';
import type { DriveService } from '../../drive';
import type { ServerServices } from '../../services';

export type DriveContext = CommandContext<ServerServices>;

export function driveOf(ctx: DriveContext): DriveService {
  return ctx.services.drive;
}

export const PATH: JsonSchema = {
  type: 'string',
  description:
    'A drive path: reports/a.pdf is in your own folder, shared/reports/a.pdf in the shared one, ' +
    'user/<uuid>/reports/a.pdf in that user\'s (yourself or admins). Relative, with no "." or ".." segment, ' +
    'backslash, percent-encoding or control character.',
};

export const TO: JsonSchema = {
  type: 'string',
  description: 'The drive folder to put the file or folder into (made when missing); same rules as path.',
};

/** The `path` parameter as text ('' is the caller's own root). */
export function pathOf(ctx: DriveContext, name = 'path'): string {
  const value = ctx.params[name];
  return value === undefined || value === null ? '' : String(value);
}

/**
 * A content reference written as JSON (guides/80_content.md): `{name, contentType, contentEncoding, content}`
 * with the content as text (base64 when so encoded). Anything else is not one.
 */
export function contentOfReference(value: unknown): BinaryContent | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isBinaryContent(value))
    return undefined;
  const ref = value as Record<string, unknown>;
  const keys = Object.keys(ref);
  const known = [
    'name',
    'created',
    'lastUpdated',
    'contentType',
    'contentLength',
    'contentEncoding',
    'content',
    'checksum',
  ];
  if (typeof ref.content !== 'string' || !keys.every((key) => known.includes(key))) return undefined;
  if (ref.contentEncoding === undefined && ref.name === undefined && ref.contentType === undefined)
    return undefined;
  const encoding = typeof ref.contentEncoding === 'string' ? ref.contentEncoding.toLowerCase() : null;
  if (encoding !== null && encoding !== 'base64' && !/^utf-?8$/.test(encoding))
    throw new PipeworkError('PARAM_INVALID', `Unknown content encoding '${encoding}' (base64 or utf-8).`, {
      parameter: 'input',
    });
  const bytes =
    encoding === 'base64'
      ? new Uint8Array(Buffer.from(ref.content, 'base64'))
      : new TextEncoder().encode(ref.content);
  const type = typeof ref.contentType === 'string' ? ref.contentType : 'application/octet-stream';
  return new BinaryContent(bytes, type, typeof ref.name === 'string' ? ref.name : undefined);
}

/**
 * The input body as content to store: a content object as it is (streamed when it is not in memory), a
 * content reference written as JSON decoded, bytes as they are, text as UTF-8, anything else as JSON text.
 */
export function contentOfBody(input: unknown, limit: number): BinaryContent {
  const body = singleContentOf(input);
  if (body === null || body === undefined)
    throw new PipeworkError('BAD_REQUEST', 'There is no content to save: the input body is empty.');
  if (isBinaryContent(body)) return body;
  if (body instanceof Uint8Array) return new BinaryContent(body);
  if (typeof body === 'string') return new BinaryContent(new TextEncoder().encode(body), 'text/plain');
  const reference = contentOfReference(body);
  if (reference) return reference;
  const json = stringifyBounded(body, limit);
  if (!json.ok) throw new PipeworkError('PAYLOAD_TOO_LARGE', 'The body is too large to save as JSON.');
  return new BinaryContent(new TextEncoder().encode(json.text), 'application/json');
}

/** The file path to save to: `path`, or the content's name inside the folder `path` names (ending in `/`). */
export function savePathOf(path: string, content: BinaryContent): string {
  if (path !== '' && !path.endsWith('/')) return path;
  if (!content.name)
    throw new PipeworkError('PARAM_INVALID', 'drive.save needs a path: the content has no name.', {
      parameter: 'path',
    });
  return `${path.replace(/^\/+/, '')}${content.name}`;
}
