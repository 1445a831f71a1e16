/** `property.lock.remove`: removes a property's lock; a trashed property comes back from the bin. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyLockRemove = defineCommand<ServerServices>(
  {
    name: 'property.lock.remove',
    summary: 'Removes the lock of a property, or restores it from the trash bin.',
    description:
      'Only whom the lock is exclusive to (or ROLE_SYSTEM) may remove it: CONFLICT for anyone else. When no ' +
      'property holds the key and the trash bin does (its trash lock), the newest binned one is restored with ' +
      'its attachments and tags (needs the right to read and change the key); CONFLICT, nothing restored, when ' +
      'another property holds the key by then. Returns {removed} and `restored` (the property) after a restore.',
    parameters: { ...KEY_OR_PATH },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Unlock, or take out of the bin',
        pipeline: 'pipeline:\n  - property.lock.remove:\n      key: global/app/mydata\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).marks.removeLock(ctx.principal, keyOf(ctx)),
);
