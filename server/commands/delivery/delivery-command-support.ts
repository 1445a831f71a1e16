/** What the delivery commands share: the caller, attachments from parameters or the body, common schemas. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import type { Principal } from '../../../shared/auth';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';
import type { NewAttachment } from '../../delivery';
import type { ServerServices } from '../../services';

export type DeliveryContext = CommandContext<ServerServices>;

export const DELIVERY_UUID: JsonSchema = { type: 'string', description: 'The uuid of the delivery.' };
export const RECIPIENTS: JsonSchema = {
  type: ['string', 'array'],
  items: { type: ['string', 'null'] },
  description: 'Recipient addresses: comma-separated text or a list (PEL too).',
};
export const ANY_TEXT: JsonSchema = {
  type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
};

export function callerOf(ctx: DeliveryContext): Principal {
  if (!ctx.principal) throw new PipeworkError('UNAUTHENTICATED', 'Deliveries need an authenticated caller.');
  return ctx.principal;
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

/** A file given as JSON: `{name|filename, content, contentEncoding?, mimeType|contentType?}`. */
export function fileObjectOf(value: Record<string, unknown>, parameter: string): NewAttachment | undefined {
  const name = value.name ?? value.filename;
  if (typeof name !== 'string' || name === '' || typeof value.content !== 'string') return undefined;
  const encoding = String(value.contentEncoding ?? '').toLowerCase();
  const base64 = encoding === 'base64' || (encoding === '' && /^data:/.test(value.content));
  let text = value.content;
  const dataUrl = /^data:([^;,]*)(;base64)?,/.exec(text);
  if (dataUrl) text = text.slice(dataUrl[0].length);
  if (base64 && !BASE64.test(text))
    throw new PipeworkError('PARAM_INVALID', `Attachment '${name.slice(0, 100)}' is not valid base64.`, {
      parameter,
    });
  const content = base64 ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  const mimeType = value.mimeType ?? value.contentType ?? dataUrl?.[1];
  return {
    name: attachmentName(name, parameter),
    mimeType: typeof mimeType === 'string' && mimeType !== '' ? mimeType : 'application/octet-stream',
    content,
  };
}

/** A file name for the page and the mail: no path, no control characters, at most 255 characters. */
export function attachmentName(name: string, parameter: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  const clean = name.replace(/^.*[\\/]/, '').replace(/[\u0000-\u001f\u007f]/g, '');
  if (clean === '' || clean.length > 255)
    throw new PipeworkError(
      'PARAM_INVALID',
      `Attachment name '${name.slice(0, 100)}' is empty or too long.`,
      {
        parameter,
      },
    );
  return clean;
}

/**
 * `attachments`: files (bytes from an expression), JSON file objects, or drive paths (read with the caller's
 * permissions); comma-separated text, one item, or a list.
 */
export async function attachmentsOf(
  ctx: DeliveryContext,
  value: unknown,
): Promise<NewAttachment[] | undefined> {
  if (value === undefined || value === null || value === '') return undefined;
  let items: unknown[] = Array.isArray(value) ? value : [value];
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new PipeworkError('PARAM_INVALID', 'attachments is not valid JSON.', {
          parameter: 'attachments',
        });
      }
      items = Array.isArray(parsed) ? parsed : [parsed];
    } else
      items = text
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
  }
  const out: NewAttachment[] = [];
  for (const item of items) {
    if (isBinaryContent(item)) {
      out.push({
        name: attachmentName(item.name ?? `attachment-${out.length + 1}`, 'attachments'),
        mimeType: item.mimeType,
        content: item.data,
      });
    } else if (typeof item === 'string') {
      const path = item.replace(/^\$?uri:drive:/, '');
      const file = await ctx.services.drive.read(
        ctx.principal,
        path,
        ctx.services.deliveries.config.maxBytes,
      );
      out.push({
        name: attachmentName(file.name ?? path, 'attachments'),
        mimeType: file.mimeType,
        content: file.data,
      });
    } else if (item && typeof item === 'object') {
      const file = fileObjectOf(item as Record<string, unknown>, 'attachments');
      if (!file)
        throw new PipeworkError('PARAM_INVALID', 'An attachment object needs a name and its content.', {
          parameter: 'attachments',
        });
      out.push(file);
    } else {
      throw new PipeworkError('PARAM_INVALID', 'An attachment is a file, a file object or a drive path.', {
        parameter: 'attachments',
      });
    }
  }
  return out;
}
