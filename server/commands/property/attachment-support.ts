/** What the property.attachment.* commands share: reading content from a parameter or the input body. */
import { PipeworkError } from '../../../shared/errors';
import { type PropertyAttachment, normalizePropertyKey } from '../../../shared/property';
import { isBinaryContent } from '../../../shared/values';
import type { PropertyContext } from './property-command-support';

/** Bytes and their mime type from `content` (text) or the input body (bytes, text, or JSON); undefined when neither. */
export function contentOf(ctx: PropertyContext): { data: Uint8Array; mimeType?: string } | undefined {
  const source =
    ctx.params.content !== undefined && ctx.params.content !== null ? ctx.params.content : ctx.input;
  if (source === undefined || source === null) return undefined;
  if (isBinaryContent(source)) return { data: source.data, mimeType: source.mimeType };
  if (source instanceof Uint8Array) return { data: source };
  if (typeof source === 'string') return { data: new TextEncoder().encode(source), mimeType: 'text/plain' };
  const json = JSON.stringify(source);
  if (json === undefined) {
    throw new PipeworkError('PARAM_INVALID', 'The attachment content must be bytes, text or JSON.', {
      parameter: 'content',
    });
  }
  return { data: new TextEncoder().encode(json), mimeType: 'application/json' };
}

/** A required attachment name parameter as text. */
export function nameOf(ctx: PropertyContext): string {
  return String(ctx.params.name);
}

/**
 * An attachment as the real product's resumable clients read it: beside our fields, `numberOfChunks` (the
 * chunk count), `size` (the length) and `collectionName` (the key of the property it belongs to).
 */
export function withClientFields(
  rawKey: string,
  attachment: PropertyAttachment,
): PropertyAttachment & { numberOfChunks: number; size: number; collectionName: string } {
  return {
    ...attachment,
    numberOfChunks: attachment.chunks,
    size: attachment.length,
    collectionName: normalizePropertyKey(rawKey),
  };
}

/** Largest attachment one streamed upload may bring. */
export const MAX_STREAMED_ATTACHMENT_BYTES = 2 * 1024 * 1024 * 1024;
