/** What the drive.* commands share: the service, the path parameters, and how a body becomes file content. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent, singleContentOf, stringifyBounded } from '../../../shared/values';
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

/** The input body as bytes to store: bytes as they are, text as UTF-8, anything else as JSON text. */
export function bytesOfBody(input: unknown, limit: number): Uint8Array {
  const body = singleContentOf(input);
  if (body === null || body === undefined)
    throw new PipeworkError('BAD_REQUEST', 'There is no content to save: the input body is empty.');
  if (isBinaryContent(body)) return body.data;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  const json = stringifyBounded(body, limit);
  if (!json.ok) throw new PipeworkError('PAYLOAD_TOO_LARGE', 'The body is too large to save as JSON.');
  return new TextEncoder().encode(json.text);
}
