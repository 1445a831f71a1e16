/** `drive.copy`: copies a file or folder into another folder. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, TO, driveOf, pathOf } from './drive-command-support';

export const driveCopy = defineCommand<ServerServices>(
  {
    name: 'drive.copy',
    summary: 'Copies a file or folder into the folder `to` (a file of the same name there is replaced).',
    description: 'Answers the entry of the copy. A folder of the same name in `to` is a CONFLICT.',
    parameters: { path: PATH, to: TO },
    required: ['path', 'to'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Share a report',
        pipeline: 'pipeline:\n  - drive.copy: {path: reports/a.pdf, to: shared/reports}\n',
      },
    ],
  },
  (ctx) => driveOf(ctx).copy(ctx.principal, pathOf(ctx), pathOf(ctx, 'to')),
);
