/** `property.attachment.delete`: removes an attachment and its content from a property. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import { ATTACHMENT_NAME, KEY, propertiesOf } from './property-command-support';

export const propertyAttachmentDelete = defineCommand<ServerServices>(
  {
    name: 'property.attachment.delete',
    summary: 'Deletes an attachment with its content; NOT_FOUND when there is none of that name.',
    parameters: { key: KEY, name: ATTACHMENT_NAME },
    required: ['key', 'name'],
    input: 'any',
    output: 'none',
    effect: 'write',
    examples: [
      {
        title: 'Remove an attachment',
        pipeline:
          'pipeline:\n  - property.attachment.delete:\n      key: global/app/myapp/doc\n      name: a.pdf\n',
      },
    ],
  },
  async (ctx) => {
    await propertiesOf(ctx).attachments.delete(ctx.principal, ctx.params.key, nameOf(ctx));
    return null;
  },
);
