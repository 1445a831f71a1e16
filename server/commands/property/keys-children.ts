/** `property.keys.children` (also `property.path.children`): the next level below a folder, for tree browsing. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { firstParam, propertiesOf } from './property-command-support';

export const propertyKeysChildren = defineCommand<ServerServices>(
  {
    name: 'property.keys.children',
    aliases: ['property.path.children'],
    summary: 'Returns the keys one level below a folder; sub-folders end with /. No pattern: the top level.',
    description:
      'The pattern is a folder, written as a/b, a/b/ or a/b/* (nested patterns such as a/*/b/* are not supported). ' +
      'A name that is both a property and a folder appears twice (a/b and a/b/).',
    parameters: {
      pattern: { type: 'string', description: 'The parent folder: global/app, global/app/ or global/app/*.' },
      key: { type: 'string', description: 'The same as pattern.' },
    },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      { title: 'Browse the apps', pipeline: 'pipeline:\n  - property.keys.children: global/app/\n' },
    ],
  },
  (ctx) => propertiesOf(ctx).children(ctx.principal, firstParam(ctx, 'pattern', 'key')),
);
