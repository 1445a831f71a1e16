/**
 * `property.send.delivery`: sends a property (a submitted form) as a secure delivery: its attachments, the
 * files its JSON value holds (form file fields: {filename, content, contentEncoding: base64, contentType}),
 * and optionally the value itself, to the recipients, with a message that may be a template rendered with
 * `model` (as mail.send renders them).
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { decodePropertyValue } from '../../../shared/property';
import { isBinaryContent } from '../../../shared/values';
import { type NewAttachment, deliveryView, privacyLevelOf } from '../../delivery';
import { recipientsOf, textOf } from '../../delivery/delivery-input';
import type { ServerServices } from '../../services';
import {
  ANY_TEXT,
  RECIPIENTS,
  attachmentName,
  callerOf,
  fileObjectOf,
  type DeliveryContext,
} from '../delivery/delivery-command-support';
import { modelOf, renderTemplate, templateOf } from '../mail/mail-template';

/** Form file fields inside a JSON value, depth-first, at most 4 levels and 100 files deep. */
function embeddedFiles(value: unknown, out: NewAttachment[] = [], depth = 0): NewAttachment[] {
  if (depth > 4 || out.length >= 100 || value === null || typeof value !== 'object') return out;
  if (!Array.isArray(value)) {
    // A large form file is kept as an attachment of the property (its `content` is then the attachment's
    // name): it goes with the property's attachments, not as a file of its name's text.
    if (typeof (value as Record<string, unknown>).attachment === 'string') return out;
    const file = fileObjectOf(value as Record<string, unknown>, 'key');
    if (file) {
      out.push(file);
      return out;
    }
  }
  for (const child of Object.values(value)) embeddedFiles(child, out, depth + 1);
  return out;
}

async function attachmentsOfProperty(ctx: DeliveryContext, key: string): Promise<NewAttachment[]> {
  const { attachments } = ctx.services.properties;
  const out: NewAttachment[] = [];
  const limit = ctx.services.deliveries.config.maxBytes;
  let total = 0;
  for (const info of await attachments.list(ctx.principal, key)) {
    total += info.length;
    if (total > limit)
      throw new PipeworkError('PAYLOAD_TOO_LARGE', `A delivery holds at most ${limit} bytes of attachments.`);
    const { content } = await attachments.open(ctx.principal, key, info.name);
    const chunks: Uint8Array[] = [];
    for await (const chunk of content) chunks.push(chunk);
    out.push({
      name: attachmentName(info.name, 'key'),
      mimeType: info.contentType,
      content: Buffer.concat(chunks),
    });
  }
  return out;
}

/** `includeProperty`: the value as one more file; its text names the file (true: `<name>.json`). */
function includedValue(key: string, value: unknown, include: unknown): NewAttachment | undefined {
  if (include === undefined || include === null || include === '' || include === false || include === 'false')
    return undefined;
  const last = key.slice(key.lastIndexOf('/') + 1);
  const name = include === true || include === 'true' ? `${last}.json` : String(include);
  if (isBinaryContent(value))
    return { name: attachmentName(name, 'includeProperty'), mimeType: value.mimeType, content: value.data };
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return {
    name: attachmentName(name, 'includeProperty'),
    mimeType: typeof value === 'string' ? 'text/plain' : 'application/json',
    content: Buffer.from(text, 'utf8'),
  };
}

function bodyMessage(input: unknown): string | undefined {
  return typeof input === 'string' && input !== '' ? input : undefined;
}

export const propertySendDelivery = defineCommand<ServerServices>(
  {
    name: 'property.send.delivery',
    effect: 'write',
    audience: 'developer',
    summary:
      'Sends a property (a submitted form) with its attachments as a secure delivery to the recipients.',
    description:
      'The property is read with your permissions. Its attachments and the files its JSON value holds (form ' +
      'file fields {filename, content, contentEncoding: base64, contentType}) become the delivery’s files; ' +
      'includeProperty adds the value itself as a file of that name. message and subject may be ' +
      'uri:property:<key> templates rendered with model (as mail.send). Every recipient gets its own link ' +
      '(delivery.send); a malformed address, a missing property or template refuses it all, nothing stored ' +
      'or sent. Answers the delivery.',
    parameters: {
      key: { type: 'string', description: 'The key of the property to send.' },
      message: {
        ...ANY_TEXT,
        description: 'The message, a uri:property: template, or by default a text body.',
      },
      privacyLevel: {
        type: ['string', 'integer'],
        description: 'L01_URL_ONLY (default), L02_CREDENTIALS, L03_ENCRYPT, L04_ENCRYPT_ALL (or 1 .. 4).',
      },
      model: {
        ...ANY_TEXT,
        description: 'The model of the templates: a value, or uri:property:<key> / uri:drive:<path>.',
      },
      subject: { type: 'string', description: 'The subject (may be a uri:property: template).' },
      includeProperty: {
        type: ['string', 'boolean'],
        description:
          'A file name: the property value is added as a file of that name (true: <key name>.json).',
      },
      recipients: RECIPIENTS,
    },
    required: ['key', 'subject', 'recipients'],
    input: 'any',
    output: 'json',
    examples: [
      {
        title: 'Send a submitted form to the configured recipient',
        pipeline:
          'pipeline:\n  - property.send.delivery:\n      key: "#{body.target.key}"\n' +
          '      subject: A form was submitted\n      message: "uri:property:global/app/myapp/template/message"\n' +
          '      model: "uri:property:#{body.target.key}"\n      privacyLevel: L02_CREDENTIALS\n' +
          '      recipients: office@example.com\n',
      },
    ],
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const privacyLevel = privacyLevelOf(ctx.params.privacyLevel);
    const recipients = recipientsOf(
      ctx.params.recipients,
      'recipients',
      ctx.services.deliveries.config.maxRecipients,
    );
    if (recipients.length === 0)
      throw new PipeworkError('PARAM_INVALID', 'property.send.delivery needs at least one recipient.', {
        parameter: 'recipients',
      });
    const key = String(ctx.params.key);
    const value = decodePropertyValue(await ctx.services.properties.get(ctx.principal, key));
    const messageTemplate = await templateOf(ctx, 'message');
    const subjectTemplate = await templateOf(ctx, 'subject');
    const model = messageTemplate !== undefined || subjectTemplate !== undefined ? await modelOf(ctx) : null;
    const subject =
      subjectTemplate !== undefined
        ? renderTemplate(ctx, subjectTemplate, model, 'subject')
            .trim()
            .replace(/[\r\n]+/g, ' ')
        : ctx.params.subject;
    const message =
      messageTemplate !== undefined
        ? renderTemplate(ctx, messageTemplate, model, 'message')
        : (ctx.params.message ?? bodyMessage(ctx.input));
    const attachments = [...(await attachmentsOfProperty(ctx, key)), ...embeddedFiles(value)];
    const included = includedValue(key, value, ctx.params.includeProperty);
    if (included) attachments.push(included);
    const { deliveries } = ctx.services;
    const created = await deliveries.create(caller, {
      subject: textOf(subject, 'subject'),
      message: textOf(message, 'message'),
      privacyLevel,
      recipients,
      attachments,
    });
    try {
      return deliveryView(await deliveries.send(caller, created.uuid));
    } catch (error) {
      // Nothing half: a delivery whose links did not all go out is not left behind (links already mailed
      // then answer 404).
      await deliveries.delete(caller, created.uuid).catch(() => undefined);
      throw error;
    }
  },
);
