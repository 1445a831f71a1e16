/** `@content`: bytes with a mime type and a name (BinaryContent), from text, data, base64 or a `uri:` reference. */
import { utilityError } from '../errors';
import { toJsonText, typeOf } from '../values';
import { BinaryContent, isBinaryContent } from '../../values';
import { base64ToBytes, utf8Bytes } from './base64';
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
