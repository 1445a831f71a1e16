/**
 * The secrets of a delivery: each recipient's download token (the unguessable part of its link) and, from
 * privacy level 2, its password; only their SHA-256 hashes are stored (both are 128 bits or more of
 * randomness, so a fast hash suffices). From level 3 the content is encrypted with AES-256-GCM under a
 * random content key that is stored only wrapped for each recipient, under a key derived from that
 * recipient's token and password: the server alone cannot read an encrypted delivery.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What a download token may look like; anything else is refused before the database is asked. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 22 characters of a 55-letter alphabet without look-alikes: about 127 bits. */
export function newPassword(): string {
  let out = '';
  for (let i = 0; i < 22; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `hash`, in constant time. */
export function secretMatches(secret: string, hash: string | null): boolean {
  if (hash === null) return false;
  const given = Buffer.from(secretHash(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export function newContentKey(): Buffer {
  return randomBytes(32);
}

/** AES-256-GCM: iv (12) | tag (16) | ciphertext. */
export function seal(key: Buffer, plain: Uint8Array): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plain bytes of `seal`; throws when the key is wrong or the bytes were changed. */
export function open(key: Buffer, sealed: Uint8Array): Buffer {
  const data = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(12, 28));
  return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]);
}

/** The key that wraps the content key for one recipient: from its token and password, never stored. */
function recipientKey(token: string, password: string, deliveryUuid: string, email: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', `${token}\n${password}`, 'pipework-delivery', `${deliveryUuid}\n${email}`, 32),
  );
}

export function wrapContentKey(
  contentKey: Buffer,
  secrets: { token: string; password: string },
  deliveryUuid: string,
  email: string,
): string {
  return seal(recipientKey(secrets.token, secrets.password, deliveryUuid, email), contentKey).toString(
    'base64',
  );
}

export function unwrapContentKey(
  wrapped: string,
  secrets: { token: string; password: string },
  deliveryUuid: string,
  email: string,
): Buffer {
  return open(
    recipientKey(secrets.token, secrets.password, deliveryUuid, email),
    Buffer.from(wrapped, 'base64'),
  );
}
