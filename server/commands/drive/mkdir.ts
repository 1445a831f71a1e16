/** `drive.mkdir`: creates a folder on the drive. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, driveOf, pathOf } from './drive-command-support';

export const driveMkdir = defineCommand<ServerServices>(
  {
    name: 'drive.mkdir',
    summary: 'Creates the folder at path unless it exists; answers its entry.',
    parameters: {
      path: PATH,
      recurse: {
        type: 'boolean',
        default: false,
        description:
          'When true, missing parent folders are created too (else NOT_FOUND when the parent is missing).',
      },
    },
    required: ['path'],
    defaultParameter: 'path',
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Create a folder',
        pipeline: 'pipeline:\n  - drive.mkdir: {path: reports/2026/11, recurse: true}\n',
      },
    ],
  },
  (ctx) => driveOf(ctx).mkdir(ctx.principal, pathOf(ctx), ctx.params.recurse === true),
);
