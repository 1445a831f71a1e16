/** `property.history.restore`: makes a kept version current again, as a new version. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, integerParam, keyOf } from './property-command-support';
import { VERSION_ID, historyOf } from './history-support';

export const propertyHistoryRestore = defineCommand<ServerServices>(
  {
    name: 'property.history.restore',
    summary: 'Restores a kept version of a property (value and type); the restore is itself a new version.',
    description:
      'Needs the write right on the key and passes the same checks as property.put (object schema, code ' +
      'sections), emitting property.changed. When the key no longer exists the version is created again (new ' +
      'uuid, with its time to live and default value), emitting property.created. A version recording a ' +
      'deletion or a move away holds no value: PARAM_INVALID. With expectedVersion, CONFLICT unless the property ' +
      'is still at that version. Returns {restoredFrom, result: update|create, property}.',
    parameters: {
      ...KEY_OR_PATH,
      version: VERSION_ID,
      expectedVersion: {
        type: 'integer',
        minimum: 1,
        description: 'The version (property.get) the property must still have.',
      },
    },
    required: ['version'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Undo a change',
        pipeline:
          'pipeline:\n  - property.history.restore:\n      key: global/app/myapp/pipeline/hello\n      version: 12\n',
      },
    ],
  },
  (ctx) =>
    historyOf(ctx).restore(
      ctx.principal,
      keyOf(ctx),
      integerParam(ctx, 'version')!,
      integerParam(ctx, 'expectedVersion'),
    ),
);
