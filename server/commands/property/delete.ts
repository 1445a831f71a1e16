/** `property.delete`: deletes one property by key, or every visible property matching a pattern (all or nothing). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { KEY, PATTERN, firstParam, integerParam, propertiesOf } from './property-command-support';

export const propertyDelete = defineCommand<ServerServices>(
  {
    name: 'property.delete',
    summary: 'Deletes the property at key (PROPERTY_NOT_FOUND if none), or all properties matching filter.',
    description:
      'With `filter` (or a `key` holding * or **), every matching property the caller may read is deleted in one ' +
      'transaction; if one of them may not be changed (e.g. a reserved app), nothing is deleted (FORBIDDEN). ' +
      'Emits property.deleted for each. Returns the deleted keys. With `trashBin: true` the properties go into ' +
      'the trash bin instead (attachments and tags with them; their keys are free at once), kept for ' +
      '`trashBinTimeToLive` milliseconds or the configured days, and come back with property.lock.remove. A locked ' +
      'property is refused (CONFLICT, naming who holds the lock).',
    parameters: {
      key: { ...KEY, description: 'The key of the property to delete (a pattern is accepted too).' },
      path: { ...KEY, description: "The same as key (the real product's name)." },
      pattern: { ...PATTERN, description: "The properties to delete (the real product's name)." },
      filter: { ...PATTERN, description: 'The same as pattern (an older name).' },
      trashBin: {
        type: 'boolean',
        default: false,
        description: 'Move the properties into the trash bin instead of deleting them.',
      },
      trashBinTimeToLive: {
        type: 'integer',
        minimum: 1,
        description:
          'With trashBin: milliseconds the bin keeps them before they are deleted for good; none: the configured ' +
          'default (PIPEWORK_TRASH_BIN_DAYS, 30 days).',
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
        title: 'Delete an app',
        pipeline: 'pipeline:\n  - property.delete:\n      filter: global/app/oldapp/**\n',
      },
      {
        title: 'Move a folder into the trash bin',
        pipeline:
          'pipeline:\n  - property.delete:\n      pattern: global/app/myapp/**\n      trashBin: true\n',
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
    if (ctx.params.trashBin === true) {
      const pattern = filter ?? (key!.includes('*') ? key : undefined);
      return service.marks.trash(
        ctx.principal,
        pattern !== undefined ? { pattern } : { key },
        integerParam(ctx, 'trashBinTimeToLive'),
      );
    }
    if (ctx.params.trashBinTimeToLive !== undefined) {
      throw new PipeworkError('PARAM_INVALID', "'trashBinTimeToLive' needs 'trashBin: true'.", {
        parameter: 'trashBinTimeToLive',
      });
    }
    if (filter !== undefined || key!.includes('*')) {
      return (await service.deleteMatching(ctx.principal, filter ?? key)).map((p) => p.key);
    }
    return [(await service.delete(ctx.principal, key)).key];
  },
);
