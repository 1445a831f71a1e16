/**
 * The envelope of `encrypt`/`decrypt`: AES-256-GCM over the value and its kind (text, JSON, or bytes with
 * their mime type and name), written as one line of text:
 *
 *   pwe1.scrypt-<log2 N>.<salt>.<iv>.<tag>.<ciphertext>   key from a password (scrypt, random salt)
 *   pwe1.key-<name>.<iv>.<tag>.<ciphertext>               a named server key (PIPEWORK_KEY_<NAME>, HKDF)
 *
 * (base64url parts). Everything before the ciphertext is authenticated too, so no part can be swapped.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from 'node:crypto';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent, isBinaryContent } from '../../../shared/values';

const VERSION = 'pwe1';
const SCRYPT_LOG_N = 15;
const SCRYPT_R = 8;
const KIND = { text: 0, json: 1, bytes: 2 } as const;

export type KeySource = { password: string } | { keyName: string; secret: string };

function scryptKey(password: string, salt: Buffer, logN: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { N, r: SCRYPT_R, p: 1, maxmem: 256 * N * SCRYPT_R }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function namedKey(name: string, secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'pipework-named-key', name, 32));
}

/** The value with its kind, as the bytes that get encrypted. */
function pack(value: unknown): Buffer {
  if (isBinaryContent(value)) {
    const meta = Buffer.from(JSON.stringify({ mimeType: value.mimeType, name: value.name }));
    const head = Buffer.alloc(5);
    head[0] = KIND.bytes;
    head.writeUInt32BE(meta.length, 1);
    return Buffer.concat([head, meta, value.data]);
  }
  if (typeof value === 'string') return Buffer.concat([Buffer.from([KIND.text]), Buffer.from(value, 'utf8')]);
  return Buffer.concat([Buffer.from([KIND.json]), Buffer.from(JSON.stringify(value ?? null), 'utf8')]);
}

function unpack(plain: Buffer): unknown {
  const kind = plain[0];
  if (kind === KIND.text) return plain.subarray(1).toString('utf8');
  if (kind === KIND.json) return JSON.parse(plain.subarray(1).toString('utf8')) as unknown;
  const metaLength = plain.readUInt32BE(1);
  const meta = JSON.parse(plain.subarray(5, 5 + metaLength).toString('utf8')) as {
    mimeType: string;
    name?: string;
  };
  return new BinaryContent(new Uint8Array(plain.subarray(5 + metaLength)), meta.mimeType, meta.name);
}

export async function seal(value: unknown, source: KeySource): Promise<string> {
  const iv = randomBytes(12);
  let header: string;
  let key: Buffer;
  if ('password' in source) {
    const salt = randomBytes(16);
    key = await scryptKey(source.password, salt, SCRYPT_LOG_N);
    header = `${VERSION}.scrypt-${SCRYPT_LOG_N}.${salt.toString('base64url')}.${iv.toString('base64url')}`;
  } else {
    key = namedKey(source.keyName, source.secret);
    header = `${VERSION}.key-${source.keyName}.${iv.toString('base64url')}`;
  }
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(header));
  const data = Buffer.concat([cipher.update(pack(value)), cipher.final()]);
  return `${header}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}

const notSealed = () =>
  new PipeworkError('BAD_REQUEST', 'The input is not a value made by encrypt (pwe1.<...>), or it was cut.');
const B64URL = /^[A-Za-z0-9_-]*$/;

/** What a sealed value says about its key: a password (scrypt) or a named key. */
export function keyKindOf(sealed: string): { kind: 'password' } | { kind: 'key'; name: string } {
  const method = sealed.split('.')[1] ?? '';
  if (method.startsWith('scrypt-')) return { kind: 'password' };
  if (method.startsWith('key-')) return { kind: 'key', name: method.slice(4) };
  throw notSealed();
}

export async function unseal(sealed: string, source: KeySource): Promise<unknown> {
  const parts = sealed.trim().split('.');
  if (parts[0] !== VERSION || parts.slice(2).some((p) => !B64URL.test(p))) throw notSealed();
  let key: Buffer;
  let rest: string[];
  if (parts[1]?.startsWith('scrypt-')) {
    const logN = Number(parts[1].slice(7));
    if (parts.length !== 6 || !Number.isInteger(logN) || logN < 10 || logN > 20) throw notSealed();
    if (!('password' in source))
      throw new PipeworkError('PARAM_INVALID', 'The input was encrypted with a password; give password.', {
        parameter: 'password',
      });
    key = await scryptKey(source.password, Buffer.from(parts[2]!, 'base64url'), logN);
    rest = parts.slice(3);
  } else if (parts[1]?.startsWith('key-')) {
    if (parts.length !== 5) throw notSealed();
    if (!('keyName' in source) || parts[1] !== `key-${source.keyName}`)
      throw new PipeworkError(
        'PARAM_INVALID',
        `The input was encrypted with the server key '${parts[1].slice(4)}'.`,
        {
          parameter: 'key',
        },
      );
    key = namedKey(source.keyName, source.secret);
    rest = parts.slice(2);
  } else {
    throw notSealed();
  }
  const [iv, tag, data] = rest.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  if (iv.length !== 12 || tag.length !== 16) throw notSealed();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(parts.slice(0, parts.length - 2).join('.')));
    decipher.setAuthTag(tag);
    return unpack(Buffer.concat([decipher.update(data), decipher.final()]));
  } catch {
    throw new PipeworkError(
      'BAD_REQUEST',
      'The input cannot be decrypted: the password or key is wrong, or the input was changed.',
    );
  }
}
