/** `drive.delete`: removes a file, or a folder with everything in it. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, driveOf, pathOf } from './drive-command-support';

export const driveDelete = defineCommand<ServerServices>(
  {
    name: 'drive.delete',
    summary: 'Deletes a file or a folder (recursively); nothing happens when it does not exist.',
    description: 'Answers {path, deleted}: deleted is false when there was nothing to delete.',
    parameters: { path: PATH },
    required: ['path'],
    defaultParameter: 'path',
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [{ title: 'Delete a file', pipeline: 'pipeline:\n  - drive.delete: reports/old.pdf\n' }],
  },
  async (ctx) => ({ path: pathOf(ctx), deleted: await driveOf(ctx).delete(ctx.principal, pathOf(ctx)) }),
);
