/** `drive.exists`: whether a file or folder is on the drive. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, driveOf, pathOf } from './drive-command-support';

export const driveExists = defineCommand<ServerServices>(
  {
    name: 'drive.exists',
    summary: 'Answers true when the file or folder exists on the drive, else false.',
    parameters: { path: PATH },
    required: ['path'],
    defaultParameter: 'path',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'Check for a file', pipeline: 'pipeline:\n  - drive.exists: reports/invoice.pdf\n' }],
  },
  (ctx) => driveOf(ctx).exists(ctx.principal, pathOf(ctx)),
);
