/** `property.attachment.list`: the attachments of a property (metadata, without content). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { withClientFields } from './attachment-support';
import { KEY_OR_PATH, KEY_OR_PATH_GIVEN, keyOf, propertiesOf } from './property-command-support';

export const propertyAttachmentList = defineCommand<ServerServices>(
  {
    name: 'property.attachment.list',
    summary:
      'Lists the attachments of a property: uuid, name, contentType, length, chunks, created, updated.',
    parameters: { ...KEY_OR_PATH },
    defaultParameter: 'key',
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'List attachments',
        pipeline: 'pipeline:\n  - property.attachment.list: global/app/myapp/doc\n',
      },
    ],
  },
  async (ctx) => {
    const key = keyOf(ctx);
    const list = await propertiesOf(ctx).attachments.list(ctx.principal, key);
    return list.map((attachment) => withClientFields(key, attachment));
  },
);
