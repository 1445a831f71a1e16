/**
 * The signature header, an alternative to the URL token: the sender signs the raw body with the webhook's
 * secret, HMAC-SHA256, hex, as `sha256=<hex>` in `X-Pipework-Signature-256` (or `X-Hub-Signature-256`, the
 * header GitHub and others send in the same form). Compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADERS = ['x-pipework-signature-256', 'x-hub-signature-256'] as const;

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** The signature a request carries (its first signature header), or undefined. */
export function signatureHeaderOf(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  for (const name of SIGNATURE_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value.length > 0) return value.trim();
  }
  return undefined;
}

/** `sha256=<hex>` of the body with the secret: what a sender puts in the header. */
export function signWebhookBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Whether `header` is the body's signature with `secret`; false for any malformed header. */
export function verifyWebhookSignature(secret: string, body: Uint8Array, header: string): boolean {
  const given = SIGNATURE.exec(header);
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given[1]!, 'hex'));
}
