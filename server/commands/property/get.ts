/** `property.get`: one property with all its fields. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyGet = defineCommand<ServerServices>(
  {
    name: 'property.get',
    summary: 'Returns the property (uuid, key, value, type, ...); PROPERTY_NOT_FOUND when there is none.',
    parameters: { ...KEY_OR_PATH },
    defaultParameter: 'key',
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      { title: 'Read a property', pipeline: 'pipeline:\n  - property.get: global/app/myapp/config/app\n' },
    ],
  },
  (ctx) => propertiesOf(ctx).get(ctx.principal, keyOf(ctx)),
);
