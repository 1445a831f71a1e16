/**
 * `property.attachment.checksum`: the MD5 (hex) of an attachment's content, read as a stream; with `checksum`
 * it is also verified (CONFLICT when it differs), for resumable uploads that check what arrived.
 */
import { createHash } from 'node:crypto';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { nameOf } from './attachment-support';
import { ATTACHMENT_NAME, KEY_OR_PATH, keyOf, propertiesOf, textParam } from './property-command-support';

export const propertyAttachmentChecksum = defineCommand<ServerServices>(
  {
    name: 'property.attachment.checksum',
    effect: 'read',
    audience: 'user',
    summary:
      "Returns the MD5 checksum (hex) of an attachment's content; verifies it when `checksum` is given.",
    parameters: {
      ...KEY_OR_PATH,
      uuid: {
        type: 'string',
        description: 'The uuid of the property; when given, path and key are ignored.',
      },
      name: ATTACHMENT_NAME,
      checksum: {
        type: 'string',
        maxLength: 128,
        description: 'The expected MD5 (hex); when it differs, CONFLICT.',
      },
    },
    required: ['name'],
    requiredOneOf: [['path', 'key', 'uuid']],
    input: 'any',
    output: 'text',
  },
  async (ctx) => {
    const properties = propertiesOf(ctx);
    const uuid = textParam(ctx, 'uuid');
    const key = uuid ? (await properties.getByUuid(ctx.principal, uuid)).key : keyOf(ctx);
    const { content } = await properties.attachments.open(ctx.principal, key, nameOf(ctx));
    const hash = createHash('md5');
    for await (const chunk of content) hash.update(chunk);
    const checksum = hash.digest('hex');
    const expected = textParam(ctx, 'checksum');
    if (expected !== undefined && expected.toLowerCase() !== checksum) {
      throw new PipeworkError(
        'CONFLICT',
        `The checksum of '${nameOf(ctx)}' is ${checksum}, not ${expected}.`,
        {
          parameter: 'checksum',
        },
      );
    }
    return checksum;
  },
);
