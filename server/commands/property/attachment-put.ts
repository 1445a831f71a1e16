/** `property.attachment.put`: creates or replaces an attachment of a property; content from `content` or the body. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { contentOf, nameOf } from './attachment-support';
import { ATTACHMENT_NAME, KEY, propertiesOf, textParam } from './property-command-support';

export const propertyAttachmentPut = defineCommand<ServerServices>(
  {
    name: 'property.attachment.put',
    summary: 'Adds an attachment to a property or replaces the one with the same name; returns its metadata.',
    description:
      'Content from `content` (text) or the input body (bytes); it replaces all chunks. Without content the ' +
      'chunks stay as they are. Sent directly (POST /api/v3/command/property.attachment.put?key=..&name=.. with ' +
      'the bytes as body) the content is streamed into storage, so its size is not bound by the command body limit.',
    parameters: {
      key: KEY,
      name: ATTACHMENT_NAME,
      content: { type: 'string', description: 'The content as text; when absent, the input body is used.' },
      contentType: { type: 'string', description: 'The mime type of the attachment.' },
    },
    required: ['key', 'name'],
    input: 'bytes',
    output: 'json',
    effect: 'write',
    examples: [
      {
        title: 'Attach a generated text',
        pipeline:
          'pipeline:\n  - property.attachment.put:\n      key: global/app/myapp/doc\n      name: readme.txt\n      content: Hello\n',
      },
    ],
  },
  (ctx) => {
    const content = contentOf(ctx);
    return propertiesOf(ctx).attachments.put(ctx.principal, ctx.params.key, nameOf(ctx), {
      contentType: textParam(ctx, 'contentType') ?? content?.mimeType,
      content: content?.data,
    });
  },
);
