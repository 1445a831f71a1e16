/** `property.history.diff`: the unified diff between two kept versions, or a version and the property now. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, integerParam, keyOf } from './property-command-support';
import { VERSION_ID, historyOf } from './history-support';

export const propertyHistoryDiff = defineCommand<ServerServices>(
  {
    name: 'property.history.diff',
    summary:
      'Returns the unified diff of a property between two kept versions (to: default the property now).',
    description:
      'The result has key, from and to (label, id, value, type), patch (unified diff text, empty when equal) and ' +
      'changed ({value, type}). LIMIT_EXCEEDED when the values differ too much to diff in half a second.',
    parameters: {
      ...KEY_OR_PATH,
      from: VERSION_ID,
      to: { ...VERSION_ID, description: 'The later version; when absent, the property as it is now.' },
    },
    required: ['from'],
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'What changed since version 12',
        pipeline:
          'pipeline:\n  - property.history.diff:\n      key: global/app/myapp/pipeline/hello\n      from: 12\n',
      },
    ],
  },
  (ctx) =>
    historyOf(ctx).diff(ctx.principal, keyOf(ctx), integerParam(ctx, 'from')!, integerParam(ctx, 'to')),
);
