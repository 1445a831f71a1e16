/** `property.put`: sets the value of an existing property, optionally only if it is still at a given version. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import {
  EVAL_VALUE,
  integerParam,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
  textParam,
  valueOf,
  warnOfLenientSchema,
} from './property-command-support';

export const propertyPut = defineCommand<ServerServices>(
  {
    name: 'property.put',
    summary: 'Sets the value of an existing property (PROPERTY_NOT_FOUND otherwise); returns the property.',
    description:
      'The value comes from `value`, else from the input body. With `version`, the write happens only if the ' +
      'property is still at that version (compare-and-swap), else CONFLICT. Emits property.changed.',
    parameters: {
      ...KEY_OR_PATH,
      value: { description: 'The new value (text, or any JSON value). When absent, the input body is used.' },
      type: {
        type: 'string',
        description: 'A new mime type; by default a text value keeps the current type.',
      },
      evalValue: EVAL_VALUE,
      version: { type: 'integer', minimum: 1, description: 'The version the property must still have.' },
    },
    defaultParameter: 'key',
    rawParameters: ['value'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Change a value only if nobody else changed it',
        pipeline:
          'pipeline:\n  - property.put:\n      key: global/app/myapp/counter\n      value: 2\n      version: 1\n',
      },
    ],
  },
  async (ctx) => {
    const property = await propertiesOf(ctx).put(ctx.principal, {
      key: keyOf(ctx),
      value: valueOf(ctx),
      type: textParam(ctx, 'type'),
      version: integerParam(ctx, 'version'),
    });
    warnOfLenientSchema(ctx, property);
    return property;
  },
);
