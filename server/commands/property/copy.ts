/** `property.copy`: copies a property to another key, overwriting it (attachments stay behind). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf, TARGET_KEY } from './property-command-support';

export const propertyCopy = defineCommand<ServerServices>(
  {
    name: 'property.copy',
    summary: 'Copies value, type, time to live and default value to `to` (overwriting it); returns the copy.',
    description: 'Emits property.created, or property.changed when `to` existed. Attachments are not copied.',
    parameters: { ...KEY_OR_PATH, to: TARGET_KEY },
    required: ['to'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Copy a form',
        pipeline:
          'pipeline:\n  - property.copy:\n      key: global/app/a/form/f\n      to: global/app/b/form/f\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).copy(ctx.principal, keyOf(ctx), ctx.params.to),
);
