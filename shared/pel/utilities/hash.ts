/** `@hash`: digests of the UTF-8 bytes of a text, as lowercase hex (synchronous, no WebCrypto). */
import { toText } from '../values';
import { bytesToHex, utf8Bytes } from './base64';
import { crc32, hmac, md5, sha1, sha256 } from './hash-algorithms';
import { type UtilitySpec, text } from './support';

/** Texts hash as their UTF-8 bytes; other values as their text (lists and maps as JSON). */
function input(a: unknown[], i: number): Uint8Array {
  const v = a[i];
  return utf8Bytes(typeof v === 'string' ? v : toText(v));
}

export const hashUtility: UtilitySpec = {
  name: 'hash',
  doc: 'Hashes of the UTF-8 bytes of a text, as lowercase hex.',
  functions: {
    md5: {
      signature: 'md5(text)',
      doc: 'MD5 (not for security).',
      fn: (...a) => bytesToHex(md5(input(a, 0))),
    },
    sha1: { signature: 'sha1(text)', doc: 'SHA-1.', fn: (...a) => bytesToHex(sha1(input(a, 0))) },
    sha256: { signature: 'sha256(text)', doc: 'SHA-256.', fn: (...a) => bytesToHex(sha256(input(a, 0))) },
    crc32: {
      signature: 'crc32(text)',
      doc: 'CRC-32 as 8 hex digits.',
      fn: (...a) => crc32(input(a, 0)).toString(16).padStart(8, '0'),
    },
    hmacSha256: {
      signature: 'hmacSha256(key, text)',
      doc: 'HMAC-SHA-256 with a text key.',
      fn: (...a) => bytesToHex(hmac(sha256, utf8Bytes(text('hmacSha256', a, 0)), input(a, 1))),
    },
    hmacSha1: {
      signature: 'hmacSha1(key, text)',
      doc: 'HMAC-SHA-1 with a text key.',
      fn: (...a) => bytesToHex(hmac(sha1, utf8Bytes(text('hmacSha1', a, 0)), input(a, 1))),
    },
  },
};
