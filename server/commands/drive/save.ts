/** `drive.save`: the input body (bytes, text or JSON) as a file on the drive. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, contentOfBody, driveOf, pathOf, savePathOf } from './drive-command-support';

export const driveSave = defineCommand<ServerServices>(
  {
    name: 'drive.save',
    summary: 'Saves the body to a file on the drive (atomically); missing folders are created.',
    description:
      'Bytes are stored as they are, text as UTF-8, other values as JSON. A file of the same name is ' +
      'replaced. Sent directly (POST /api/v3/command/drive.save?path=.. with the file as body, any content ' +
      'type) the body is streamed to disk, up to PIPEWORK_MAX_DRIVE_FILE (2 GiB by default); so is every content ' +
      'object (a multipart upload, a drive.read file). A content reference written as JSON ({name, ' +
      'contentEncoding: base64, content}) is decoded. Without path, or with a folder path ending in /, the file ' +
      "takes the content's name. Returns the file's entry (name, path, size, mimeType, modified) unless cleanupBody is false.",
    parameters: {
      path: PATH,
      cleanupBody: {
        type: 'boolean',
        default: true,
        description: "When false, the body stays as it was instead of becoming the saved file's entry.",
      },
    },
    defaultParameter: 'path',
    input: 'bytes',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    streaming: { input: ['raw'] },
    examples: [
      {
        title: 'Save a generated text',
        pipeline: 'pipeline:\n  - set.body: Hello\n  - drive.save: notes/hello.txt\n',
      },
    ],
  },
  async (ctx) => {
    const content = contentOfBody(ctx.input, ctx.services.config.limits.commandBodyBytes);
    // A content object not in memory (a large upload, a drive file) is copied chunk by chunk.
    const source = content.inMemory ? content.data : content.stream();
    const entry = await driveOf(ctx).save(ctx.principal, savePathOf(pathOf(ctx), content), source);
    return ctx.params.cleanupBody === false ? ctx.input : entry;
  },
);
