/** `property.attachment.get`: one attachment's metadata (without content). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { nameOf, withClientFields } from './attachment-support';
import {
  ATTACHMENT_NAME,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
} from './property-command-support';

export const propertyAttachmentGet = defineCommand<ServerServices>(
  {
    name: 'property.attachment.get',
    summary: 'Returns the metadata of one attachment; NOT_FOUND when the property has none of that name.',
    parameters: { ...KEY_OR_PATH, name: ATTACHMENT_NAME },
    required: ['name'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Size of an attachment',
        pipeline:
          'pipeline:\n  - property.attachment.get:\n      key: global/app/myapp/doc\n      name: a.pdf\n',
      },
    ],
  },
  async (ctx) =>
    withClientFields(
      keyOf(ctx),
      await propertiesOf(ctx).attachments.get(ctx.principal, keyOf(ctx), nameOf(ctx)),
    ),
);
