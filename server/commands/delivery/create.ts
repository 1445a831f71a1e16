/** `delivery.create`: a new secure delivery in DRAFT state. */
import { defineCommand, type JsonSchema } from '../../../shared/commands';
import { deliveryView, privacyLevelOf } from '../../delivery';
import { booleanOf, deleteAfterOf, recipientsOf, textOf } from '../../delivery/delivery-input';
import type { ServerServices } from '../../services';
import { ANY_TEXT, RECIPIENTS, attachmentsOf, callerOf } from './delivery-command-support';

export const DELIVERY_FIELD_PARAMETERS: Record<string, JsonSchema> = {
  subject: { type: 'string', description: 'The subject; a default names the sender.' },
  message: { ...ANY_TEXT, description: 'The message shown in the mail and on the download page.' },
  privacyLevel: {
    type: ['integer', 'string'],
    description:
      '1 (link only), 2 (link plus a password mailed separately), 3 (and the files stored encrypted), ' +
      '4 (and the message encrypted too); also L01_URL_ONLY .. L04_ENCRYPT_ALL. Default 1.',
  },
  recipients: RECIPIENTS,
  deleteAfter: {
    type: ['integer', 'string'],
    description: 'Epoch millis after which the delivery and its files are deleted; 0 or empty for never.',
  },
  attachments: {
    ...ANY_TEXT,
    description:
      'Files: bytes from an expression (#{body}), JSON objects {name, content, contentEncoding: base64, mimeType} ' +
      'or drive paths; a list, one, or comma-separated paths.',
  },
  notifySender: {
    type: ['boolean', 'string'],
    description: 'Mails the sender when a recipient downloads for the first time (default true).',
  },
};

export const deliveryCreate = defineCommand<ServerServices>(
  {
    name: 'delivery.create',
    effect: 'write',
    audience: 'developer',
    summary: 'Creates a secure delivery (DRAFT): subject, message, recipients, files, privacy level, expiry.',
    description:
      'Nothing is mailed until delivery.send. Malformed recipient addresses refuse the whole delivery ' +
      '(PARAM_INVALID); nothing is stored then. Answers the delivery.',
    parameters: DELIVERY_FIELD_PARAMETERS,
    input: 'any',
    output: 'json',
    examples: [
      {
        title: 'Create a delivery with a file from the drive',
        pipeline:
          'pipeline:\n  - delivery.create:\n      subject: Contract\n      recipients: ann@example.com\n' +
          '      attachments: contracts/2026.pdf\n      privacyLevel: 2\n',
      },
    ],
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const { deliveries } = ctx.services;
    const delivery = await deliveries.create(caller, {
      subject: textOf(ctx.params.subject, 'subject'),
      message: textOf(ctx.params.message, 'message'),
      privacyLevel: privacyLevelOf(ctx.params.privacyLevel),
      recipients:
        ctx.params.recipients === undefined ? [] : recipientsOf(ctx.params.recipients, 'recipients'),
      deleteAfter: deleteAfterOf(ctx.params.deleteAfter),
      notifySender: booleanOf(ctx.params.notifySender, 'notifySender'),
      attachments: await attachmentsOf(ctx, ctx.params.attachments),
    });
    return deliveryView(delivery);
  },
);
