/** `drive.save`: the input body (bytes, text or JSON) as a file on the drive. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, bytesOfBody, driveOf, pathOf } from './drive-command-support';

export const driveSave = defineCommand<ServerServices>(
  {
    name: 'drive.save',
    summary: 'Saves the body to a file on the drive (atomically); missing folders are created.',
    description:
      'Bytes are stored as they are, text as UTF-8, other values as JSON. A file of the same name is ' +
      'replaced. Sent directly (POST /api/v3/command/drive.save?path=.. with the file as body, any content ' +
      'type) the body is streamed to disk, up to PIPEWORK_MAX_DRIVE_FILE (2 GiB by default). Returns the ' +
      "file's entry (name, path, size, mimeType, modified) unless cleanupBody is false.",
    parameters: {
      path: PATH,
      cleanupBody: {
        type: 'boolean',
        default: true,
        description: "When false, the body stays as it was instead of becoming the saved file's entry.",
      },
    },
    required: ['path'],
    defaultParameter: 'path',
    input: 'bytes',
    output: 'any',
    effect: 'write',
    examples: [
      {
        title: 'Save a generated text',
        pipeline: 'pipeline:\n  - set.body: Hello\n  - drive.save: notes/hello.txt\n',
      },
    ],
  },
  async (ctx) => {
    const data = bytesOfBody(ctx.input, ctx.services.config.limits.commandBodyBytes);
    const entry = await driveOf(ctx).save(ctx.principal, pathOf(ctx), data);
    return ctx.params.cleanupBody === false ? ctx.input : entry;
  },
);
