/** `property.move`: gives a property a new key (uuid and attachments go along); the target must be free. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf, TARGET_KEY } from './property-command-support';

export const propertyMove = defineCommand<ServerServices>(
  {
    name: 'property.move',
    summary: 'Moves a property to `to` (PROPERTY_EXISTS when taken); returns it under its new key.',
    description: 'Emits property.deleted for the old key and property.created for the new one.',
    parameters: { ...KEY_OR_PATH, to: TARGET_KEY },
    required: ['to'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Limit an app to a tenant',
        pipeline:
          'pipeline:\n  - property.move:\n      key: global/app/a/config/app\n      to: tenant/<tenant-uuid>/app/a/config/app\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).move(ctx.principal, keyOf(ctx), ctx.params.to),
);
