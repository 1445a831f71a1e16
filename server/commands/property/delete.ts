/** `property.delete`: deletes one property by key, or every visible property matching a pattern (all or nothing). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { KEY, PATTERN, firstParam, propertiesOf } from './property-command-support';

export const propertyDelete = defineCommand<ServerServices>(
  {
    name: 'property.delete',
    summary: 'Deletes the property at key (PROPERTY_NOT_FOUND if none), or all properties matching filter.',
    description:
      'With `filter` (or a `key` holding * or **), every matching property the caller may read is deleted in one ' +
      'transaction; if one of them may not be changed (e.g. a reserved app), nothing is deleted (FORBIDDEN). ' +
      'Emits property.deleted for each. Returns the deleted keys.',
    parameters: {
      key: { ...KEY, description: 'The key of the property to delete (a pattern is accepted too).' },
      path: { ...KEY, description: "The same as key (the real product's name)." },
      pattern: { ...PATTERN, description: "The properties to delete (the real product's name)." },
      filter: { ...PATTERN, description: 'The same as pattern (an older name).' },
    },
    defaultParameter: 'key',
    requiredOneOf: [['path', 'key', 'pattern', 'filter']],
    input: 'any',
    output: 'json',
    effect: 'write',
    examples: [
      {
        title: 'Delete an app',
        pipeline: 'pipeline:\n  - property.delete:\n      filter: global/app/oldapp/**\n',
      },
    ],
  },
  async (ctx) => {
    const key = firstParam(ctx, 'path', 'key');
    const filter = firstParam(ctx, 'pattern', 'filter');
    if ((key === undefined) === (filter === undefined)) {
      throw new PipeworkError(
        'PARAM_INVALID',
        "Give either 'pattern' or 'path' (or 'key') to property.delete.",
        {
          parameter: key === undefined ? 'pattern' : 'path',
        },
      );
    }
    const service = propertiesOf(ctx);
    if (filter !== undefined || key!.includes('*')) {
      return (await service.deleteMatching(ctx.principal, filter ?? key)).map((p) => p.key);
    }
    return [(await service.delete(ctx.principal, key)).key];
  },
);
