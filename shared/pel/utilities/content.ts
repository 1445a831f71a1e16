/** `@content`: bytes with a mime type and a name (BinaryContent), from text, data, base64 or a `uri:` reference. */
import { utilityError } from '../errors';
import { toJsonText, typeOf } from '../values';
import { BinaryContent, isBinaryContent } from '../../values';
import { base64ToBytes, utf8Bytes } from './base64';
import { loadJson } from './json';
import { type PelUriResolver, resolveUri } from './resolve';
import { type UtilitySpec, listOrText, text, textOrNull } from './support';

/** Bytes of a value: content as it is, text as UTF-8 (or base64 when so encoded), data as JSON. */
export function toContent(
  fn: string,
  value: unknown,
  contentType: string | null,
  encoding: string | null,
  name: string | null,
): BinaryContent {
  const named = name ?? undefined;
  if (isBinaryContent(value))
    return new BinaryContent(value.data, contentType ?? value.mimeType, named ?? value.name);
  if (value === null || value === undefined) throw utilityError(`${fn}: there is no content in null`);
  if (typeof value === 'string') {
    const base64 = encoding !== null && encoding.toLowerCase() === 'base64';
    if (encoding !== null && !base64 && !/^utf-?8$/i.test(encoding))
      throw utilityError(`${fn}: unknown content encoding '${encoding}' (utf-8 or base64)`);
    const bytes = base64 ? base64ToBytes(value) : utf8Bytes(value);
    return new BinaryContent(
      bytes,
      contentType ?? (base64 ? 'application/octet-stream' : 'text/plain'),
      named,
    );
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'object')
    return new BinaryContent(utf8Bytes(toJsonText(value)), contentType ?? 'application/json', named);
  throw utilityError(`${fn}: cannot make content of a ${typeOf(value)}`);
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;
const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(xml|yaml|x-yaml|javascript)\b)/i;

/** UTF-8 text of the bytes; null when they are not UTF-8 (a PDF, an image). */
function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * `@content.load(body.content)` as the content guide writes it: the data of a content object (or of its bytes)
 * in memory: JSON parsed (by its type, or when the bytes read as a JSON document), other text as text, bytes that
 * are not text as a content object. Maps, lists and text are already loaded.
 */
export function loadContent(value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value ?? null;
  if (!isBinaryContent(value) && !(value instanceof Uint8Array)) return value;
  const type = isBinaryContent(value) ? value.mimeType : '';
  const name = isBinaryContent(value) ? (value.name ?? '') : '';
  const bytes = isBinaryContent(value) ? value.data : value;
  if (JSON_TYPE.test(type) || /\.json$/i.test(name)) return loadJson('load', bytes);
  const textOf = utf8OrNull(bytes);
  // Not text (a PDF, an image): the content itself, its bytes now in memory.
  if (textOf === null) return isBinaryContent(value) ? value : new BinaryContent(bytes);
  if (TEXT_TYPE.test(type)) return textOf;
  return /^\s*[[{]/.test(textOf) ? loadJson('load', textOf) : textOf;
}

/** `@content` over a resolver (the server's, or none: then `uri:` references are refused). */
export function contentSpec(resolver: PelUriResolver | null): UtilitySpec {
  const fromUri = (fn: string, uri: unknown): BinaryContent => {
    if (typeof uri !== 'string') throw utilityError(`${fn}: expected a uri: text, got a ${typeOf(uri)}`);
    const name =
      uri
        .replace(/[#?].*$/, '')
        .split(/[/:]/)
        .pop() || null;
    return toContent(fn, resolveUri(fn, uri, resolver), null, null, name);
  };
  return {
    name: 'content',
    doc: 'Content: bytes with a mime type and a name, as files and attachments flow through a pipeline.',
    functions: {
      newContent: {
        signature: 'newContent(uri)',
        doc: "The content a uri: reference points to: @content.newContent('uri:property:global/app/x/template').",
        fn: (...a) => fromUri('newContent', a[0]),
      },
      newCollection: {
        signature: 'newCollection()',
        overloads: ['newCollection(uris)'],
        doc: 'A list of contents: empty, or one for each uri: reference (a list or comma-separated text).',
        fn: (...a) => listOrText('newCollection', a, 0).map((uri) => fromUri('newCollection', uri)),
      },
      load: {
        signature: 'load(content)',
        doc: 'The data of a content object (or its bytes) in memory: JSON parsed, text as text, other bytes as content: @content.load(body.content) after drive.read of a JSON file.',
        fn: (...a) => loadContent(a[0]),
      },
      fromBase64: {
        signature: 'fromBase64(base64String)',
        overloads: ['fromBase64(base64String, name)', 'fromBase64(base64String, name, contentType)'],
        doc: 'Content of base64 bytes, optionally named and typed (default application/octet-stream).',
        fn: (...a) =>
          new BinaryContent(
            base64ToBytes(text('fromBase64', a, 0)),
            textOrNull('fromBase64', a, 2) ?? 'application/octet-stream',
            textOrNull('fromBase64', a, 1) ?? undefined,
          ),
      },
      from: {
        signature: 'from(object, contentType, contentEncoding, name)',
        overloads: ['from(object, name)', 'from(object)'],
        doc: "Content of a value: text as UTF-8 (text/plain; base64 when contentEncoding is 'base64'), data as JSON (application/json), content as it is.",
        fn: (...a) =>
          a.length === 2
            ? toContent('from', a[0], null, null, textOrNull('from', a, 1))
            : toContent(
                'from',
                a[0],
                textOrNull('from', a, 1),
                textOrNull('from', a, 2),
                textOrNull('from', a, 3),
              ),
      },
    },
  };
}

export const contentUtility = contentSpec(null);
