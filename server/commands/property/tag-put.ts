/** `property.tag.put`: adds tags to a property (overwriting tags of the same name). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { PropertyTags } from '../../../shared/property';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf, textParam } from './property-command-support';
import { TAGS_PARAMETER, tagsToAdd } from './schema-put-extras';

export const propertyTagPut = defineCommand<ServerServices>(
  {
    name: 'property.tag.put',
    summary:
      'Adds a tag (name and value) or several (tags) to a property, overwriting tags of the same name.',
    description:
      'Needs the right to change the property, and no lock that keeps the caller out (CONFLICT). A tag name is ' +
      'unique per property; `property.lock` is the lock and is set by property.lock.put only. Returns all tags ' +
      'of the property as {name: value}. Without name and tags nothing changes.',
    parameters: {
      ...KEY_OR_PATH,
      tags: TAGS_PARAMETER,
      name: { type: 'string', description: 'The name of one tag to add.' },
      value: { type: 'string', description: 'The value of that tag (default: empty).' },
    },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Tag an applicant',
        pipeline:
          'pipeline:\n  - property.tag.put:\n      key: global/app/jobs/applicant/1\n      name: invite\n',
      },
    ],
  },
  async (ctx) => {
    const add: PropertyTags = tagsToAdd(ctx);
    const name = textParam(ctx, 'name');
    if (name !== undefined) add[name] = textParam(ctx, 'value') ?? '';
    else if (ctx.params.value !== undefined) {
      throw new PipeworkError('PARAM_INVALID', "'value' needs 'name': the tag it is the value of.", {
        parameter: 'value',
      });
    }
    const service = propertiesOf(ctx);
    if (Object.keys(add).length === 0) return service.marks.tags(ctx.principal, keyOf(ctx));
    return service.marks.putTags(ctx.principal, keyOf(ctx), add);
  },
);
