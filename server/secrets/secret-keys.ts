/**
 * The master key that seals secret values (AES-256-GCM), kept outside the database: `PIPEWORK_SECRETS_KEY`
 * (32 bytes, Base64 or hex) or the key file `secrets.key` in the data folder, created on first start with
 * owner-only rights. Each sealed value names its key by id, so a rotation can re-seal row by row and an
 * instance that meets a key id it does not know reads the key files again.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
  closeSync,
  fsyncSync,
} from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE = 'secrets.key';
/** The next key while a rotation runs (a rotation cut short resumes with it). */
export const NEXT_KEY_FILE = 'secrets.key.next';

export interface SecretKey {
  id: string;
  key: Buffer;
}

export interface SecretKeyConfig {
  /** `PIPEWORK_SECRETS_KEY`: when set, no key file is used. */
  envKey?: string;
  /** `PIPEWORK_SECRETS_KEY_PREVIOUS`: the key before a rotation, for reading what it sealed. */
  envPreviousKey?: string;
  dataDir: string;
}

export function loadSecretKeyConfig(env: NodeJS.ProcessEnv, dataDir: string): SecretKeyConfig {
  return {
    envKey: env.PIPEWORK_SECRETS_KEY || undefined,
    envPreviousKey: env.PIPEWORK_SECRETS_KEY_PREVIOUS || undefined,
    dataDir,
  };
}

function keyOf(bytes: Buffer): SecretKey {
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), key: bytes };
}

/** A key given as text: 64 hex digits or the Base64 of 32 bytes; anything else stops the start. */
export function parseKeyText(text: string, what: string): SecretKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (
    bytes.length !== KEY_BYTES ||
    (!/^[0-9a-fA-F]{64}$/.test(trimmed) && bytes.toString('base64') !== trimmed)
  )
    throw new Error(`${what} must be 32 random bytes, as 64 hex digits or Base64 (openssl rand -base64 32)`);
  return keyOf(bytes);
}

function readKeyFile(path: string): SecretKey {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0)
    throw new Error(`${path} may be read by others (mode ${mode.toString(8)}): chmod 600 it`);
  return parseKeyText(readFileSync(path, 'utf8'), path);
}

/** Writes a new random key file with mode 0600; refuses to overwrite one. */
function createKeyFile(path: string): SecretKey {
  const bytes = randomBytes(KEY_BYTES);
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${bytes.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o600); // the umask may have narrowed it further, never widened: make it exact
  return keyOf(bytes);
}

/** The keys an instance seals with (`current`) and can open (all of them, by id). */
export class SecretKeyRing {
  private keys = new Map<string, SecretKey>();
  current!: SecretKey;

  constructor(private readonly config: SecretKeyConfig) {
    this.load(true);
  }

  get fromEnvironment(): boolean {
    return this.config.envKey !== undefined;
  }

  private load(create: boolean): void {
    const keys = new Map<string, SecretKey>();
    if (this.config.envKey !== undefined) {
      this.current = parseKeyText(this.config.envKey, 'PIPEWORK_SECRETS_KEY');
      keys.set(this.current.id, this.current);
      if (this.config.envPreviousKey !== undefined) {
        const previous = parseKeyText(this.config.envPreviousKey, 'PIPEWORK_SECRETS_KEY_PREVIOUS');
        keys.set(previous.id, previous);
      }
    } else {
      const file = join(this.config.dataDir, KEY_FILE);
      const next = join(this.config.dataDir, NEXT_KEY_FILE);
      this.current = existsSync(file) || !create ? readKeyFile(file) : createKeyFile(file);
      keys.set(this.current.id, this.current);
      if (existsSync(next)) {
        const key = readKeyFile(next);
        keys.set(key.id, key);
      }
    }
    this.keys = keys;
  }

  /** The key of an id; the key files are read again once when the id is unknown (another instance rotated). */
  find(id: string): SecretKey | undefined {
    const known = this.keys.get(id);
    if (known || this.fromEnvironment) return known;
    this.load(false);
    return this.keys.get(id);
  }

  /** Starts a rotation: a new key file next to the current one (the one a rotation cut short, if there is one). */
  beginRotation(): SecretKey {
    if (this.fromEnvironment) return this.current;
    const next = join(this.config.dataDir, NEXT_KEY_FILE);
    const key = existsSync(next) ? readKeyFile(next) : createKeyFile(next);
    this.keys.set(key.id, key);
    return key;
  }

  /** Ends a rotation: every value is sealed with the next key, which becomes the key file; the old key is gone. */
  finishRotation(key: SecretKey): void {
    if (this.fromEnvironment) return;
    renameSync(join(this.config.dataDir, NEXT_KEY_FILE), join(this.config.dataDir, KEY_FILE));
    this.keys = new Map([[key.id, key]]);
    this.current = key;
  }
}

/** Seals a value: IV, tag and ciphertext in Base64; `binding` (the row's identity) is authenticated too. */
export function seal(key: SecretKey, plaintext: string, binding: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Opens a sealed value; throws when the key, the binding or the bytes do not match. */
export function open(key: SecretKey, sealed: string, binding: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(binding, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
