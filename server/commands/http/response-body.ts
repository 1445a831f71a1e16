/** How the http.* commands hand on a response body: JSON parsed, text as text, anything else as bytes. */
import { BinaryContent } from '../../../shared/values';

const TEXT_TYPES = /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|yaml|x-yaml|csv)\b)|\+xml\b/i;
const JSON_TYPES = /^application\/(json|[\w.-]+\+json)\b|\+json\b/i;

function decodeText(bytes: Uint8Array, contentType: string): string {
  const charset = /charset="?([\w-]+)"?/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function decodeResponseBody(bytes: Uint8Array, contentType: string | undefined): unknown {
  if (bytes.byteLength === 0) return null;
  const type = (contentType ?? '').trim();
  if (JSON_TYPES.test(type)) {
    const text = decodeText(bytes, type);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (TEXT_TYPES.test(type)) return decodeText(bytes, type);
  const mime = type.split(';')[0].trim() || 'application/octet-stream';
  return new BinaryContent(new Uint8Array(bytes), mime);
}
