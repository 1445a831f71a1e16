/** `property.attachment.chunk.put`: appends a chunk to an attachment, or replaces the chunk at `index`. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { contentOf, nameOf } from './attachment-support';
import {
  ATTACHMENT_NAME,
  integerParam,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
} from './property-command-support';

export const propertyAttachmentChunkPut = defineCommand<ServerServices>(
  {
    name: 'property.attachment.chunk.put',
    summary: 'Adds a chunk of data to an attachment (created when missing); with index, replaces that chunk.',
    description: 'Large content goes in as several calls, each within the command body limit.',
    parameters: {
      ...KEY_OR_PATH,
      name: ATTACHMENT_NAME,
      index: {
        type: 'integer',
        minimum: 0,
        description: 'The chunk to replace; when absent, a chunk is appended.',
      },
      content: { type: 'string', description: 'The chunk as text; when absent, the input body is used.' },
    },
    required: ['name'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'bytes',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Append a chunk from the body',
        pipeline:
          'pipeline:\n  - property.attachment.chunk.put:\n      key: global/app/myapp/doc\n      name: big.bin\n',
      },
    ],
  },
  (ctx) => {
    const content = contentOf(ctx);
    if (!content)
      throw new PipeworkError('PARAM_INVALID', 'A chunk needs content (parameter or body).', {
        parameter: 'content',
      });
    return propertiesOf(ctx).attachments.putChunk(
      ctx.principal,
      keyOf(ctx),
      nameOf(ctx),
      content.data,
      integerParam(ctx, 'index'),
    );
  },
);
