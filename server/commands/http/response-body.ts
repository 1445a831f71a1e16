/** How the http.* commands hand on a response body: JSON parsed, text as text, anything else as bytes. */
import { parse as parseDisposition } from 'content-disposition';
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

/** The last segment of a name a server sent (never a path: it may become a drive file's name). */
function baseName(name: string): string | undefined {
  const last = name.split(/[/\\]/).pop() ?? '';
  return last === '' || last === '.' || last === '..' ? undefined : last;
}

/**
 * A downloaded file's name: the `filename` of its Content-Disposition (RFC 6266, `filename*` first), else the
 * last segment of the URL's path; undefined when neither names one.
 */
export function fileNameOf(disposition: string | undefined, url: string | undefined): string | undefined {
  if (disposition) {
    try {
      const named = parseDisposition(disposition).parameters.filename;
      if (named) return baseName(named);
    } catch {
      // A malformed header names nothing; the URL may still.
    }
  }
  if (!url) return undefined;
  try {
    return baseName(decodeURIComponent(new URL(url).pathname.split('/').pop() ?? ''));
  } catch {
    return undefined;
  }
}

/** JSON parsed, text as text, anything else as a content object named as `fileNameOf` finds. */
export function decodeResponseBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  source: { disposition?: string; url?: string } = {},
): unknown {
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
  return new BinaryContent(new Uint8Array(bytes), mime, fileNameOf(source.disposition, source.url));
}
