/** `property.attachment.delete`: removes an attachment and its content from a property. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import {
  ATTACHMENT_NAME,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
} from './property-command-support';

export const propertyAttachmentDelete = defineCommand<ServerServices>(
  {
    name: 'property.attachment.delete',
    summary: 'Deletes an attachment with its content; NOT_FOUND when there is none of that name.',
    parameters: { ...KEY_OR_PATH, name: ATTACHMENT_NAME },
    required: ['name'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'none',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Remove an attachment',
        pipeline:
          'pipeline:\n  - property.attachment.delete:\n      key: global/app/myapp/doc\n      name: a.pdf\n',
      },
    ],
  },
  async (ctx) => {
    await propertiesOf(ctx).attachments.delete(ctx.principal, keyOf(ctx), nameOf(ctx));
    return null;
  },
);
