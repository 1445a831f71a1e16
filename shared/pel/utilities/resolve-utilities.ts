/**
 * The utilities that read `uri:` references, over one resolver: `@resolve.uri`, `@uri.resolve`, `@convert.lazy`
 * and `@content.newContent` / `newCollection`. The defaults use none (and refuse); the server builds them over
 * its `PelUriResolver` for each run (`createUriUtilities`).
 */
import type { PelUtilities } from '../types';
import { contentSpec } from './content';
import { convertSpec } from './convert';
import { type PelUriResolver, URI_SCHEMES, resolveUri } from './resolve';
import { type UtilitySpec, text, toUtility } from './support';
import { uriSpec } from './uri';

const FORMS = [...URI_SCHEMES.map((s) => `$uri:${s}:`), 'http(s)://'].join(', ');

export function resolveSpec(resolver: PelUriResolver | null): UtilitySpec {
  return {
    name: 'resolve',
    doc: `Resolves uri: references (${FORMS}) with the caller's permissions; other forms are refused.`,
    functions: {
      uri: {
        signature: 'uri(uri)',
        doc: "The value a uri: reference points to: @resolve.uri('$uri:property:global/app/x#recipient'), @resolve.uri('$uri:property:global/app/x@attachments.size()'), @resolve.uri('$uri:user:jdoe').",
        fn: (...a) => resolveUri('uri', text('uri', a, 0), resolver),
      },
    },
  };
}

export const resolveUtility = resolveSpec(null);

/** `@resolve`, `@uri`, `@convert` and `@content` reading `uri:` references through `resolver`. */
export function createUriUtilities(resolver: PelUriResolver): PelUtilities {
  return {
    resolve: toUtility(resolveSpec(resolver)),
    uri: toUtility(uriSpec(resolver)),
    convert: toUtility(convertSpec(resolver)),
    content: toUtility(contentSpec(resolver)),
  };
}
