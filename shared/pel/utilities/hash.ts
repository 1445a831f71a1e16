/**
 * `@hash`: digests of the UTF-8 bytes of a text, as lowercase hex. Synchronous and the same in Node and
 * browsers (no WebCrypto): the digests come from an audited library, CRC-32 from `crc32.ts`.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { toText } from '../values';
import { bytesToHex, utf8Bytes } from './base64';
import { crc32 } from './crc32';
import { type UtilitySpec, joinTexts, optionalText, text } from './support';

type Digest = (bytes: Uint8Array) => Uint8Array;

/** Texts hash as their UTF-8 bytes; other values as their text (lists and maps as JSON); null as ''. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : toText(v);
}

function input(a: unknown[], i: number): Uint8Array {
  return utf8Bytes(asText(a[i]));
}

/** `xConcat(separator, text)`: the digest of the items (a list, comma-separated text or several arguments) joined. */
function concatDigest(fn: string, digest: Digest, a: unknown[]): string {
  const separator = optionalText(fn, a, 0, '');
  const items = a.length === 2 && Array.isArray(a[1]) ? a[1] : a.slice(1);
  return bytesToHex(digest(utf8Bytes(joinTexts(fn, items.map(asText), separator))));
}

export const hashUtility: UtilitySpec = {
  name: 'hash',
  doc: 'Hashes of the UTF-8 bytes of a text, as lowercase hex (null hashes as the empty text).',
  functions: {
    md5: {
      signature: 'md5(input)',
      doc: 'MD5 (not for security).',
      fn: (...a) => bytesToHex(md5(input(a, 0))),
    },
    md5Concat: {
      signature: 'md5Concat(separator, text)',
      doc: "MD5 of the texts (a list or several arguments) joined by the separator: @hash.md5Concat(':', 'a', 'b') is @hash.md5('a:b').",
      fn: (...a) => concatDigest('md5Concat', md5, a),
    },
    sha1: { signature: 'sha1(input)', doc: 'SHA-1.', fn: (...a) => bytesToHex(sha1(input(a, 0))) },
    sha256: { signature: 'sha256(input)', doc: 'SHA-256.', fn: (...a) => bytesToHex(sha256(input(a, 0))) },
    sha256Concat: {
      signature: 'sha256Concat(separator, text)',
      doc: 'SHA-256 of the texts joined by the separator.',
      fn: (...a) => concatDigest('sha256Concat', sha256, a),
    },
    sha512: { signature: 'sha512(input)', doc: 'SHA-512.', fn: (...a) => bytesToHex(sha512(input(a, 0))) },
    sha512Concat: {
      signature: 'sha512Concat(separator, text)',
      doc: 'SHA-512 of the texts joined by the separator.',
      fn: (...a) => concatDigest('sha512Concat', sha512, a),
    },
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
