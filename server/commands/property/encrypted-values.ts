/** The parameters of encrypted properties (guides/180_encryption.md): `encrypted` on create, `decrypt` on read. */
import type { JsonSchema } from '../../../shared/commands';

export const ENCRYPTED_PARAMETER: JsonSchema = {
  type: 'boolean',
  default: false,
  description:
    "Store the value encrypted (AES-256-GCM with the installation's secrets key), now and on every later write; " +
    'once set it cannot be undone. Lists, property.get, events and queries show the sealed form ' +
    '{"$encrypted": "..."}; property.value.get decrypts it for whoever may read the property.',
};

export const DECRYPT_PARAMETER: JsonSchema = {
  type: 'boolean',
  default: true,
  description:
    'Decrypt the value of an encrypted property (the default); false gives the sealed form as stored. A value ' +
    'that is not encrypted is given as it is either way.',
};

/** The texts of a decrypted value to keep out of the run history: the text itself, or a JSON value's strings. */
export function textsOf(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length >= 1000 || depth > 32) return out;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) textsOf(item, out, depth + 1);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) textsOf(item, out, depth + 1);
  return out;
}
