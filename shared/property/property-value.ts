/**
 * How a value given to a property command becomes stored text plus a mime type, and back: strings as they
 * are, other JSON values as JSON text (`application/json`), bytes as base64 (`;encoding=base64`).
 */
import { PipeworkError } from '../errors';
import { BinaryContent, describeJsonRefusal, isBinaryContent, stringifyBounded } from '../values';
import { base64ToBytes, bytesToBase64 } from './base64';
import { DEFAULT_PROPERTY_TYPE, type Property } from './property';

/**
 * The ceiling for turning a value into JSON text at all (the store's own, lower limit applies after): a
 * value that is small in memory can be enormous as text.
 */
export const MAX_JSON_TEXT_CHARS = 64 * 1024 * 1024;

/** Older type names of the real product's `property.schema.put`, mapped to mime types. */
const LEGACY_TYPES: Record<string, string> = {
  STRING: 'text/plain',
  JSON: 'application/json',
  BOOL: 'application/json',
  INT: 'application/json',
  LONG: 'application/json',
  DECIMAL: 'application/json',
};

/** Parameter values are printable ASCII (a type is sent as a `Content-Type` header, which takes no other text). */
const MIME_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9!#$&^_.+-]{1,127}(\s*;\s*[A-Za-z0-9_.+-]+=("[\x20\x21\x23-\x7e]*"|[\x21\x23-\x2b\x2d-\x3a\x3c-\x7e]*))*$/;

/** The mime type as stored (legacy names mapped), or PARAM_INVALID when it is not a mime type. */
export function normalizePropertyType(type: unknown): string | undefined {
  if (type === undefined || type === null || type === '') return undefined;
  if (typeof type !== 'string')
    throw new PipeworkError('PARAM_INVALID', 'Parameter type must be a mime type.', { parameter: 'type' });
  const legacy = LEGACY_TYPES[type.toUpperCase()];
  if (legacy) return legacy;
  const trimmed = type.trim();
  if (trimmed.length > 255 || !MIME_TYPE.test(trimmed)) {
    throw new PipeworkError('PARAM_INVALID', `Parameter type '${trimmed.slice(0, 80)}' is not a mime type.`, {
      parameter: 'type',
    });
  }
  return trimmed;
}

/** The `type/subtype` part, lower case. */
export function baseMimeType(type: string): string {
  return type.split(';', 1)[0]!.trim().toLowerCase();
}

/** True when the type marks base64-encoded binary content. */
export function isBase64Type(type: string): boolean {
  return /;\s*encoding\s*=\s*"?base64"?\s*(;|$)/i.test(type);
}

/** True for `application/json` and `*+json` types. */
export function isJsonType(type: string): boolean {
  const base = baseMimeType(type);
  return base === 'application/json' || base.endsWith('+json');
}

function withBase64(type: string): string {
  return isBase64Type(type) ? type : `${type};encoding=base64`;
}

/** A value ready to store: text and its type. */
export interface StoredValue {
  value: string | null;
  type: string;
}

/**
 * Converts what a command received into stored text. `type` (already normalised) wins when given;
 * otherwise strings are `text/plain`, bytes `application/octet-stream;encoding=base64` (or their own mime
 * type), everything else JSON text as `application/json`.
 */
export function toStoredValue(value: unknown, type?: string): StoredValue {
  if (value === undefined || value === null) return { value: null, type: type ?? DEFAULT_PROPERTY_TYPE };
  if (typeof value === 'string') return { value, type: type ?? DEFAULT_PROPERTY_TYPE };
  if (isBinaryContent(value))
    return { value: bytesToBase64(value.data), type: withBase64(type ?? value.mimeType) };
  if (value instanceof Uint8Array) {
    return { value: bytesToBase64(value), type: withBase64(type ?? 'application/octet-stream') };
  }
  const json = stringifyBounded(value, MAX_JSON_TEXT_CHARS);
  if (!json.ok) {
    const code = json.reason === 'too-large' ? 'PAYLOAD_TOO_LARGE' : 'PARAM_INVALID';
    throw new PipeworkError(code, `The value ${describeJsonRefusal(json.reason, MAX_JSON_TEXT_CHARS)}.`, {
      parameter: 'value',
    });
  }
  return { value: json.text, type: type ?? 'application/json' };
}

/**
 * The value as a pipeline uses it: parsed JSON for JSON types (the text itself if it does not parse),
 * bytes for base64 types, the text otherwise.
 */
export function decodePropertyValue(property: Pick<Property, 'value' | 'type'>): unknown {
  const { value, type } = property;
  if (value === null) return null;
  if (isBase64Type(type)) {
    const mime = type.replace(/;\s*encoding\s*=\s*"?base64"?\s*/i, '').trim() || 'application/octet-stream';
    return new BinaryContent(base64ToBytes(value), mime);
  }
  if (isJsonType(type)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}
