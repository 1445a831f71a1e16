/** `property.attachment.chunk.get`: the bytes of one chunk of an attachment (empty when there is no such chunk). */
import { defineCommand } from '../../../shared/commands';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import {
  ATTACHMENT_NAME,
  integerParam,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
} from './property-command-support';

export const propertyAttachmentChunkGet = defineCommand<ServerServices>(
  {
    name: 'property.attachment.chunk.get',
    aliases: ['property.attachment.chunk.content'],
    summary:
      'Returns the content of one chunk (index, default 0) as bytes; nothing when the chunk does not exist.',
    parameters: {
      ...KEY_OR_PATH,
      name: ATTACHMENT_NAME,
      index: { type: 'integer', minimum: 0, default: 0, description: 'The chunk to return.' },
    },
    required: ['name'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Read the first chunk',
        pipeline:
          'pipeline:\n  - property.attachment.chunk.get:\n      key: global/app/myapp/doc\n      name: big.bin\n',
      },
    ],
  },
  async (ctx) => {
    const service = propertiesOf(ctx).attachments;
    const attachment = await service.get(ctx.principal, keyOf(ctx), nameOf(ctx));
    const data = await service.readChunk(
      ctx.principal,
      keyOf(ctx),
      nameOf(ctx),
      integerParam(ctx, 'index') ?? 0,
    );
    return data ? new BinaryContent(data, attachment.contentType, attachment.name) : null;
  },
);
