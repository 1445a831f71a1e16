/** `property.attachment.content`: the whole content of an attachment, as bytes of its content type. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import {
  ATTACHMENT_NAME,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
} from './property-command-support';

export const propertyAttachmentContent = defineCommand<ServerServices>(
  {
    name: 'property.attachment.content',
    summary: 'Returns the content of an attachment as bytes (with its content type and file name).',
    description:
      'Called directly (GET /api/v3/command/property.attachment.content?key=..&name=..) the content is streamed ' +
      'chunk by chunk, whatever its size. Inside a pipeline it becomes the body, so it must fit the command body ' +
      'limit (PAYLOAD_TOO_LARGE otherwise).',
    parameters: { ...KEY_OR_PATH, name: ATTACHMENT_NAME },
    required: ['name'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'user',
    streaming: { output: 'chunks' },
    examples: [
      {
        title: 'Download an attachment',
        pipeline:
          'pipeline:\n  - property.attachment.content:\n      key: global/app/myapp/doc\n      name: a.pdf\n',
      },
    ],
  },
  async (ctx) => {
    const limit = ctx.services.config.limits.commandBodyBytes;
    const { attachment, content } = await propertiesOf(ctx).attachments.open(
      ctx.principal,
      keyOf(ctx),
      nameOf(ctx),
    );
    if (attachment.length > limit) {
      throw new PipeworkError(
        'PAYLOAD_TOO_LARGE',
        `Attachment '${attachment.name}' has ${attachment.length} bytes, more than a pipeline body may hold (${limit}); ` +
          'download it with GET /api/v3/command/property.attachment.content instead.',
        { limit, length: attachment.length },
      );
    }
    const data = new Uint8Array(attachment.length);
    let at = 0;
    for await (const chunk of content) {
      data.set(chunk, at);
      at += chunk.byteLength;
    }
    return new BinaryContent(data.subarray(0, at), attachment.contentType, attachment.name);
  },
);
