/** `drive.move`: moves a file or folder into another folder. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATH, TO, driveOf, pathOf } from './drive-command-support';

export const driveMove = defineCommand<ServerServices>(
  {
    name: 'drive.move',
    summary: 'Moves a file or folder into the folder `to`.',
    description: 'Answers the entry at its new place. A folder of the same name in `to` is a CONFLICT.',
    parameters: { path: PATH, to: TO },
    required: ['path', 'to'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Archive a report',
        pipeline: 'pipeline:\n  - drive.move: {path: reports/a.pdf, to: archive/2026}\n',
      },
    ],
  },
  (ctx) => driveOf(ctx).move(ctx.principal, pathOf(ctx), pathOf(ctx, 'to')),
);
