/** `property.lock.put` (`property.lock.create`): locks a property to a user, role, group or namespace, or for all. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';
import { lockRequestOf } from './lock-support';

export const propertyLockPut = defineCommand<ServerServices>(
  {
    name: 'property.lock.put',
    aliases: ['property.lock.create'],
    summary: 'Locks a property: only the user, role, group or namespace it is exclusive to may change it.',
    description:
      'Types: user (default: the caller, or the user given by uuid or name), role and group (name: the role or ' +
      'group), namespace (name, default this installation), global (nobody) and trash (moves the property into ' +
      'the trash bin; ttl: how long the bin keeps it). ROLE_SYSTEM changes any locked property. A locked ' +
      'property refuses every change and delete by others with CONFLICT naming who holds the lock; with ttl ' +
      '(milliseconds) the lock ends by itself. The caller must be allowed to change the property (FORBIDDEN) and ' +
      'not be kept out by a lock on it (CONFLICT). Returns the lock tag {ts, ttl, type, uuid, name, details}.',
    parameters: {
      ...KEY_OR_PATH,
      type: {
        type: 'string',
        enum: ['user', 'role', 'group', 'namespace', 'global', 'trash'],
        default: 'user',
        description: 'Whom the lock is exclusive to.',
      },
      ttl: {
        type: ['integer', 'string'],
        description:
          'Milliseconds after which the lock ends (trash: after which the property is deleted for good).',
      },
      uuid: {
        type: 'string',
        description: 'Type user: the uuid of the user (default: the caller). Type group: the group.',
      },
      name: {
        type: 'string',
        description:
          'The role, group (name or uuid) or namespace the lock is exclusive to; type user: a username.',
      },
      details: { type: 'string', description: 'Any note to keep with the lock.' },
    },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Lock to the current user',
        pipeline: 'pipeline:\n  - property.lock.create:\n      key: global/app/myapp/data/mydata\n',
      },
      {
        title: 'Lock to a role',
        pipeline:
          'pipeline:\n  - property.lock.put:\n      path: global/app/myapp/data/mydata\n      type: role\n      name: ROLE_SUPPORT\n',
      },
    ],
  },
  async (ctx) => propertiesOf(ctx).marks.lock(ctx.principal, keyOf(ctx), await lockRequestOf(ctx)),
);
