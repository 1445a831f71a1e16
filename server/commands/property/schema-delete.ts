/** `property.schema.delete`: deletes a property with its value, metadata and attachments; nothing happens if there is none. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PipeworkError } from '../../../shared/errors';
import { KEY_OR_PATH, PATTERN, keyOf, propertiesOf, textParam } from './property-command-support';

export const propertySchemaDelete = defineCommand<ServerServices>(
  {
    name: 'property.schema.delete',
    summary:
      'Deletes a property (or, with a wildcard pattern, all matching ones), its value and all its metadata; returns it (them), or nothing when it did not exist.',
    description: 'Cannot be undone. Emits property.deleted.',
    parameters: {
      ...KEY_OR_PATH,
      pattern: {
        ...PATTERN,
        description:
          "The property, or with * or ** all properties matching it, to delete (the real product's name).",
      },
    },
    defaultParameter: 'key',
    requiredOneOf: [['path', 'key', 'pattern', 'filter']],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Remove an old config',
        pipeline: 'pipeline:\n  - property.schema.delete: global/app/myapp/config/old\n',
      },
    ],
  },
  async (ctx) => {
    const pattern = textParam(ctx, 'pattern');
    if (pattern === undefined) return propertiesOf(ctx).remove(ctx.principal, keyOf(ctx));
    if (textParam(ctx, 'key') !== undefined || textParam(ctx, 'path') !== undefined) {
      throw new PipeworkError('PARAM_INVALID', "Give 'pattern' or 'path' (or 'key'), not both.", {
        parameter: 'pattern',
      });
    }
    // Wildcards delete every matching property the caller can see, in one transaction (all or nothing).
    if (pattern.includes('*')) return propertiesOf(ctx).deleteMatching(ctx.principal, pattern);
    return propertiesOf(ctx).remove(ctx.principal, pattern);
  },
);
