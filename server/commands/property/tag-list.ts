/** `property.tag.list`: the tags of a property as {name: value}. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyTagList = defineCommand<ServerServices>(
  {
    name: 'property.tag.list',
    summary: 'Returns the tags of a property as {name1: value1, name2: value2}.',
    description:
      'Its lock, when it has one, is the tag property.lock (the lock tag as JSON text). PROPERTY_NOT_FOUND when ' +
      'the property does not exist; FORBIDDEN when the caller may not read it.',
    parameters: { ...KEY_OR_PATH },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Tags of an applicant',
        pipeline: 'pipeline:\n  - property.tag.list:\n      key: global/app/jobs/applicant/1\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).marks.tags(ctx.principal, keyOf(ctx)),
);
