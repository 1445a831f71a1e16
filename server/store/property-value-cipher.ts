/**
 * Values of properties created with `encrypted: true` (guides/180_encryption.md), sealed at rest with the
 * installation's secrets key (server/secrets: AES-256-GCM, the key ring of named secrets; no second key).
 * The stored form is JSON text, `{"$encrypted":"v1:<key id>:<IV, tag and ciphertext in Base64>"}`, so
 * in-database JSON reads of a folder that holds one see a map without the fields instead of failing. The
 * sealed text is `{"v": value}` (null stays null). Whether a property is encrypted is read from its stored
 * value: a property once sealed stays sealed.
 */
import { PipeworkError } from '../../shared/errors';
import { open, seal, type SecretKeyRing } from '../secrets/secret-keys';

const SEALED = /^\{"\$encrypted":"v1:([0-9a-f]{16}):([A-Za-z0-9+/=]+)"\}$/;
/** The start every sealed value has; a value given by a caller that starts so is refused. */
const SEALED_START = '{"$encrypted":';
/** Authenticated with every value: a sealed text of another kind (a named secret) does not open here. */
const BINDING = 'pipework:property-value';

export function isSealedValue(value: string | null | undefined): boolean {
  return typeof value === 'string' && SEALED.test(value);
}

/** Refuses a plain value that looks sealed: only the server seals. */
export function refuseSealedLookalike(value: string | null | undefined): void {
  if (typeof value === 'string' && value.trimStart().startsWith(SEALED_START))
    throw new PipeworkError(
      'PARAM_INVALID',
      'A property value may not start with {"$encrypted": (the form of encrypted values, which only the server writes).',
      { parameter: 'value' },
    );
}

export class PropertyValueCipher {
  constructor(private readonly keys: SecretKeyRing) {}

  seal(value: string | null): string {
    const key = this.keys.current;
    return `{"$encrypted":"v1:${key.id}:${seal(key, JSON.stringify({ v: value }), BINDING)}"}`;
  }

  /** The plain value of a sealed one; INTERNAL (a bug or a lost key) when it does not open. */
  open(sealed: string, propertyKey: string): string | null {
    const match = SEALED.exec(sealed);
    if (!match) throw new Error(`property ${propertyKey} holds no sealed value`);
    const key = this.keys.find(match[1]!);
    if (!key)
      throw new Error(`property ${propertyKey} is sealed with key ${match[1]}, which this instance lacks`);
    return (JSON.parse(open(key, match[2]!, BINDING)) as { v: string | null }).v;
  }

  /** The same value sealed with `next` (a key rotation). */
  reseal(sealed: string, propertyKey: string, next: { id: string; key: Buffer }): string {
    const plain = this.open(sealed, propertyKey);
    return `{"$encrypted":"v1:${next.id}:${seal(next, JSON.stringify({ v: plain }), BINDING)}"}`;
  }
}
