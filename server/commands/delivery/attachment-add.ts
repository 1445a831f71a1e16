/** `delivery.attachment.add`: one file, from the body, added to a DRAFT delivery. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';
import { deliveryView } from '../../delivery';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, attachmentName, callerOf } from './delivery-command-support';

export const deliveryAttachmentAdd = defineCommand<ServerServices>(
  {
    name: 'delivery.attachment.add',
    effect: 'write',
    audience: 'developer',
    summary: 'Adds the file in the body to a delivery in DRAFT state, under the given name.',
    description:
      'The body is the content (bytes, or text stored as UTF-8). A FINALIZED delivery is CONFLICT; all files ' +
      'of a delivery together are limited (PIPEWORK_DELIVERY_MAX_BYTES, PAYLOAD_TOO_LARGE).',
    parameters: {
      deliveryUuid: DELIVERY_UUID,
      name: { type: 'string', description: 'The file name of the attachment.' },
      mimeType: { type: 'string', description: 'The mime type; by default the body’s.' },
      length: {
        type: ['integer', 'string'],
        description: 'The length in bytes; when given, it must match the body.',
      },
    },
    required: ['deliveryUuid', 'name'],
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const body = ctx.input;
    let content: Uint8Array;
    let mimeType = typeof ctx.params.mimeType === 'string' ? ctx.params.mimeType : undefined;
    if (isBinaryContent(body)) {
      content = body.data;
      mimeType ??= body.mimeType;
    } else if (typeof body === 'string') content = Buffer.from(body, 'utf8');
    else if (body === null || body === undefined)
      throw new PipeworkError('PARAM_INVALID', 'delivery.attachment.add takes the file in the body.');
    else {
      content = Buffer.from(JSON.stringify(body), 'utf8');
      mimeType ??= 'application/json';
    }
    const length = ctx.params.length;
    if (
      length !== undefined &&
      length !== '' &&
      Number(length) !== 0 &&
      Number(length) !== content.byteLength
    )
      throw new PipeworkError(
        'PARAM_INVALID',
        `length ${String(length)} does not match the ${content.byteLength} bytes of the body.`,
        { parameter: 'length' },
      );
    const delivery = await ctx.services.deliveries.addAttachment(callerOf(ctx), ctx.params.deliveryUuid, {
      name: attachmentName(String(ctx.params.name), 'name'),
      mimeType: mimeType ?? 'application/octet-stream',
      content,
    });
    return deliveryView(delivery);
  },
);
