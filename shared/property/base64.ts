/** Base64 without `Buffer` (shared/ runs in the browser too): binary property values are stored as base64 text. */
import { PipeworkError } from '../errors';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;
LOOKUP['-'.charCodeAt(0)] = 62; // base64url is accepted on input
LOOKUP['_'.charCodeAt(0)] = 63;

/** Standard base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let line = '';
  const full = bytes.length - (bytes.length % 3);
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    line += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
    if (line.length >= 8192) {
      parts.push(line);
      line = '';
    }
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const n = bytes[full]! << 16;
    line += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}==`;
  } else if (rest === 2) {
    const n = (bytes[full]! << 16) | (bytes[full + 1]! << 8);
    line += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}${ALPHABET[(n >> 6) & 63]}=`;
  }
  parts.push(line);
  return parts.join('');
}

/** Decodes base64 or base64url (padding and whitespace optional); PARAM_INVALID on other characters. */
export function base64ToBytes(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let length = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 61) break; // '=' padding ends the data
    if (code === 32 || code === 10 || code === 13 || code === 9) continue;
    const v = code < 128 ? LOOKUP[code]! : -1;
    if (v < 0)
      throw new PipeworkError('PARAM_INVALID', 'The value is not valid base64.', { parameter: 'value' });
    buffer = ((buffer << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, length);
}
