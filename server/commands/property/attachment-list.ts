/** `property.attachment.list`: the attachments of a property (metadata, without content). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY, propertiesOf } from './property-command-support';

export const propertyAttachmentList = defineCommand<ServerServices>(
  {
    name: 'property.attachment.list',
    summary:
      'Lists the attachments of a property: uuid, name, contentType, length, chunks, created, updated.',
    parameters: { key: KEY },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'json',
    effect: 'read',
    examples: [
      {
        title: 'List attachments',
        pipeline: 'pipeline:\n  - property.attachment.list: global/app/myapp/doc\n',
      },
    ],
  },
  (ctx) => propertiesOf(ctx).attachments.list(ctx.principal, ctx.params.key),
);
