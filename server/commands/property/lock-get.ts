/** `property.lock.get`: the lock tag of a property, or null. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyLockGet = defineCommand<ServerServices>(
  {
    name: 'property.lock.get',
    summary: 'Returns the lock tag of a property, or null when it is not locked.',
    description:
      'The lock tag is {ts, ttl, type, uuid, name, details}; a lock past its ttl counts as none. For a key whose ' +
      'property lies in the trash bin, its trash lock (to whoever may read and change the key). ' +
      'PROPERTY_NOT_FOUND when neither exists.',
    parameters: { ...KEY_OR_PATH },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Who holds the lock',
        pipeline: 'pipeline:\n  - property.lock.get:\n      path: global/app/myapp/data/mydata\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).marks.getLock(ctx.principal, keyOf(ctx)),
);
