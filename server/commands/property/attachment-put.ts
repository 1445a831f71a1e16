/** `property.attachment.put`: creates or replaces an attachment of a property; content from `content` or the body. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { PipeworkError } from '../../../shared/errors';
import type { Principal } from '../../../shared/auth';
import { type BinaryContent, isBinaryContent, singleContentOf } from '../../../shared/values';
import { MAX_STREAMED_ATTACHMENT_BYTES, contentOf, withClientFields } from './attachment-support';

/** One entry of a content collection: a content object with a name. */
function collectionEntry(entry: unknown, index: number): BinaryContent & { name: string } {
  if (!isBinaryContent(entry) || !entry.name) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Entry ${index} of the content collection is not a named content object.`,
      { parameter: 'input' },
    );
  }
  return entry as BinaryContent & { name: string };
}
import {
  ATTACHMENT_NAME,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
  textParam,
} from './property-command-support';

export const propertyAttachmentPut = defineCommand<ServerServices>(
  {
    name: 'property.attachment.put',
    summary: 'Adds an attachment to a property or replaces the one with the same name; returns its metadata.',
    description:
      'Content from `content` (text) or the input body (bytes); it replaces all chunks. Without content the ' +
      'chunks stay as they are. Sent directly (POST /api/v3/command/property.attachment.put?key=..&name=.. with ' +
      'the bytes as body) the content is streamed into storage, so its size is not bound by the command body limit. ' +
      'Without `name`, the name of the content object in the body is taken; a content collection (a multipart ' +
      'upload) adds one attachment per entry, each under its own name.',
    parameters: {
      ...KEY_OR_PATH,
      name: ATTACHMENT_NAME,
      content: { type: 'string', description: 'The content as text; when absent, the input body is used.' },
      contentType: { type: 'string', description: 'The mime type of the attachment.' },
    },
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'bytes',
    output: 'json',
    effect: 'write',
    audience: 'user',
    streaming: { input: ['raw', 'multipart'] },
    examples: [
      {
        title: 'Attach a generated text',
        pipeline:
          'pipeline:\n  - property.attachment.put:\n      key: global/app/myapp/doc\n      name: readme.txt\n      content: Hello\n',
      },
    ],
  },
  async (ctx) => {
    const key = keyOf(ctx);
    const attachments = propertiesOf(ctx).attachments;
    /** A content object in memory is put whole; one that is not (a large upload) is streamed into storage. */
    const putContent = (principal: Principal | null, k: string, name: string, entry: BinaryContent) =>
      entry.inMemory
        ? attachments.put(principal, k, name, { contentType: entry.mimeType, content: entry.data })
        : attachments.write(principal, k, name, entry.stream(), {
            contentType: entry.mimeType,
            maxBytes: MAX_STREAMED_ATTACHMENT_BYTES,
          });
    if (
      Array.isArray(ctx.input) &&
      ctx.params.content === undefined &&
      textParam(ctx, 'name') === undefined
    ) {
      const entries = ctx.input.map((entry, index) => collectionEntry(entry, index));
      const added = [];
      for (const entry of entries) {
        added.push(await putContent(ctx.principal, key, entry.name, entry));
      }
      return added.map((attachment) => withClientFields(key, attachment));
    }
    const single = singleContentOf(ctx.input);
    if (ctx.params.content === undefined && isBinaryContent(single) && !single.inMemory) {
      const name = textParam(ctx, 'name') ?? single.name;
      if (name !== undefined) {
        const typed = single.renamed(textParam(ctx, 'contentType') ?? single.mimeType, name);
        return withClientFields(key, await putContent(ctx.principal, key, name, typed));
      }
    }
    const content = contentOf(ctx);
    const name = textParam(ctx, 'name') ?? (isBinaryContent(ctx.input) ? ctx.input.name : undefined);
    if (name === undefined) {
      throw new PipeworkError(
        'PARAM_INVALID',
        "Missing required parameter 'name' for property.attachment.put.",
        {
          parameter: 'name',
        },
      );
    }
    const attachment = await attachments.put(ctx.principal, key, name, {
      contentType: textParam(ctx, 'contentType') ?? content?.mimeType,
      content: content?.data,
    });
    return withClientFields(key, attachment);
  },
);
