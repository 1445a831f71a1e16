/** `property.history.get`: one kept version of a property with its value. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, integerParam, keyOf } from './property-command-support';
import { VERSION_ID, historyOf } from './history-support';

export const propertyHistoryGet = defineCommand<ServerServices>(
  {
    name: 'property.history.get',
    summary:
      'Returns one kept version of a property with its value; NOT_FOUND when the key has no such version.',
    parameters: { ...KEY_OR_PATH, version: VERSION_ID },
    required: ['version'],
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Read version 12 of a pipeline',
        pipeline:
          'pipeline:\n  - property.history.get:\n      key: global/app/myapp/pipeline/hello\n      version: 12\n',
      },
    ],
  },
  (ctx) => historyOf(ctx).get(ctx.principal, keyOf(ctx), integerParam(ctx, 'version')!),
);
