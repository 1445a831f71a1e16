/** `drive.list`: the entries of a drive folder. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, driveOf, pathOf } from './drive-command-support';

export const driveList = defineCommand<ServerServices>(
  {
    name: 'drive.list',
    summary:
      'Lists a drive folder: name, path, type (file or folder), size, mimeType and modified of each entry.',
    description: 'An empty path lists your own folder; a file path lists that file alone. Sorted by name.',
    parameters: { path: PATH },
    required: ['path'],
    defaultParameter: 'path',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'List the shared reports', pipeline: 'pipeline:\n  - drive.list: shared/reports\n' }],
  },
  (ctx) => driveOf(ctx).list(ctx.principal, pathOf(ctx)),
);
