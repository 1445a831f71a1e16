/** `property.keys` (also `property.path.list`): the keys matching a pattern that the caller may read. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PATTERN, firstParam, propertiesOf } from './property-command-support';

export const propertyKeys = defineCommand<ServerServices>(
  {
    name: 'property.keys',
    aliases: ['property.path.list'],
    summary: 'Returns the keys matching a pattern (default: all) that the caller may read, in key order.',
    parameters: { pattern: PATTERN, filter: { ...PATTERN, description: 'The same as pattern.' } },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [{ title: 'Keys of an app', pipeline: 'pipeline:\n  - property.keys: global/app/myapp/**\n' }],
  },
  (ctx) => propertiesOf(ctx).keys(ctx.principal, firstParam(ctx, 'pattern', 'filter') ?? '**'),
);
