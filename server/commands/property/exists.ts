/** `property.exists`: whether a property exists (and has not expired). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyExists = defineCommand<ServerServices>(
  {
    name: 'property.exists',
    summary: 'Returns true when the property exists, else false.',
    parameters: { ...KEY_OR_PATH },
    defaultParameter: 'key',
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Check before creating',
        pipeline: 'pipeline:\n  - property.exists: global/app/myapp/config/app\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).exists(ctx.principal, keyOf(ctx)),
);
