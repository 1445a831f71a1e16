/** `property.schema.delete`: deletes a property with its value, metadata and attachments; nothing happens if there is none. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, propertiesOf } from './property-command-support';

export const propertySchemaDelete = defineCommand<ServerServices>(
  {
    name: 'property.schema.delete',
    summary:
      'Deletes a property, its value and all its metadata; returns it, or nothing when it did not exist.',
    description: 'Cannot be undone. Emits property.deleted.',
    parameters: { key: KEY },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'json',
    effect: 'write',
    examples: [
      {
        title: 'Remove an old config',
        pipeline: 'pipeline:\n  - property.schema.delete: global/app/myapp/config/old\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).remove(ctx.principal, ctx.params.key),
);
