/** `property.attachment.get`: one attachment's metadata (without content). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import { ATTACHMENT_NAME, KEY, propertiesOf } from './property-command-support';

export const propertyAttachmentGet = defineCommand<ServerServices>(
  {
    name: 'property.attachment.get',
    summary: 'Returns the metadata of one attachment; NOT_FOUND when the property has none of that name.',
    parameters: { key: KEY, name: ATTACHMENT_NAME },
    required: ['key', 'name'],
    input: 'any',
    output: 'json',
    effect: 'read',
    examples: [
      {
        title: 'Size of an attachment',
        pipeline:
          'pipeline:\n  - property.attachment.get:\n      key: global/app/myapp/doc\n      name: a.pdf\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).attachments.get(ctx.principal, ctx.params.key, nameOf(ctx)),
);
