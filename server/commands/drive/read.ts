/** `drive.read`: a file of the drive as the body (bytes with its mime type and name). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, driveOf, pathOf } from './drive-command-support';

export const driveRead = defineCommand<ServerServices>(
  {
    name: 'drive.read',
    summary: 'Reads a file from the drive into the body, as bytes with its mime type and name.',
    description:
      'Called directly (GET /api/v3/command/drive.read?path=..) the file is streamed with its mime type, ' +
      'Content-Length and Content-Disposition, and HTTP range requests (Range: bytes=0-99) are answered ' +
      'with 206 Partial Content (416 when the range lies outside the file). Inside a pipeline the file ' +
      'becomes the body as a content object (name, contentType, contentLength); a file over the command ' +
      'body limit is a reference read chunk by chunk when saved, attached or sent as the result, and ' +
      'reading its bytes in PEL is refused (PAYLOAD_TOO_LARGE).',
    parameters: { path: PATH },
    required: ['path'],
    defaultParameter: 'path',
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'developer',
    streaming: { output: 'ranges' },
    examples: [{ title: 'Read a file', pipeline: 'pipeline:\n  - drive.read: reports/invoice.pdf\n' }],
  },
  (ctx) => driveOf(ctx).read(ctx.principal, pathOf(ctx), ctx.services.config.limits.commandBodyBytes),
);
