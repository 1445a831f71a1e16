/** `@uri`: percent-encoding, query strings and the parts of a URI (RFC 3986). */
import { utilityError } from '../errors';
import { FORBIDDEN_KEYS, isMapLike, ownKeys, readOwn, setEntry } from '../safety';
import { templateText } from '../values';
import { type PelUriResolver, resolveUri } from './resolve';
import { type UtilitySpec, capString, map, text } from './support';

function decode(fn: string, s: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? s.replace(/\+/g, ' ') : s);
  } catch {
    throw utilityError(`${fn}: malformed percent-encoding in '${s}'`);
  }
}

/** RFC 3986's reference regex; every part may be empty and take line breaks, so it never backtracks. */
const URI =
  /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?)?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;

function parseQuery(fn: string, q: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of q.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(fn, eq < 0 ? pair : pair.slice(0, eq), true);
    const value = eq < 0 ? '' : decode(fn, pair.slice(eq + 1), true);
    if (FORBIDDEN_KEYS.has(key)) continue;
    const existing = Object.hasOwn(out, key) ? out[key] : undefined;
    if (existing === undefined) setEntry(out, key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else setEntry(out, key, [existing, value]);
  }
  return out;
}

/** `k=v&k=v`, percent-encoded; its length is checked as it grows (a list may repeat one long text). */
function queryString(fn: string, pairs: readonly (readonly [string, unknown])[]): string {
  const out: string[] = [];
  let length = 0;
  for (const [k, v] of pairs) {
    const pair = `${encodeURIComponent(k)}=${encodeURIComponent(templateText(v))}`;
    capString(fn, (length += pair.length + 1));
    out.push(pair);
  }
  return out.join('&');
}

/** `@uri` over a resolver (the server's, or none: then `resolve` refuses `uri:` references). */
export function uriSpec(resolver: PelUriResolver | null): UtilitySpec {
  return {
    ...uriFunctions,
    functions: {
      ...uriFunctions.functions,
      resolve: {
        signature: 'resolve(uri)',
        doc: "The value a uri: reference points to (as @resolve.uri): @uri.resolve('uri:property:global/app/x').",
        fn: (...a) => resolveUri('resolve', text('resolve', a, 0), resolver),
      },
    },
  };
}

const uriFunctions: UtilitySpec = {
  name: 'uri',
  doc: 'URIs: encoding, query strings, parts, and resolving uri: references (with the server).',
  functions: {
    encode: {
      signature: 'encode(text)',
      doc: "Percent-encodes everything but unreserved characters: @uri.encode('a b&c') is 'a%20b%26c'.",
      fn: (...a) => encodeURIComponent(text('encode', a, 0)),
    },
    decode: {
      signature: 'decode(text)',
      doc: 'Decodes percent-encoding.',
      fn: (...a) => decode('decode', text('decode', a, 0), false),
    },
    encodePath: {
      signature: 'encodePath(path)',
      doc: "Percent-encodes each segment, keeping the '/'.",
      fn: (...a) => text('encodePath', a, 0).split('/').map(encodeURIComponent).join('/'),
    },
    query: {
      signature: 'query(map)',
      doc: "A query string from a map (lists repeat the key): @uri.query({a: 1, b: 'x y'}) is 'a=1&b=x%20y'.",
      fn: (...a) => {
        const m = map('query', a, 0);
        return queryString(
          'query',
          ownKeys(m).flatMap((k) => {
            const v = readOwn(m, k);
            return (Array.isArray(v) ? v : [v]).map((item) => [k, item] as const);
          }),
        );
      },
    },
    parseQuery: {
      signature: 'parseQuery(query)',
      doc: 'A map from a query string (repeated keys become lists).',
      fn: (...a) => parseQuery('parseQuery', text('parseQuery', a, 0)),
    },
    parse: {
      signature: 'parse(uri)',
      doc: 'The parts: scheme, userInfo, host, port, path, query, fragment, params.',
      fn: (...a) => {
        const m = URI.exec(text('parse', a, 0));
        if (!m) throw utilityError('parse: not a URI');
        return {
          scheme: m[1] ?? null,
          userInfo: m[2] ?? null,
          host: m[3] || null,
          port: m[4] ? Number(m[4]) : null,
          path: m[5] ?? '',
          query: m[6] ?? null,
          fragment: m[7] ?? null,
          params: m[6] ? parseQuery('parse', m[6]) : {},
        };
      },
    },
    withQuery: {
      signature: 'withQuery(uri, params)',
      doc: 'The URI with the params appended to its query string.',
      fn: (...a) => {
        const uri = text('withQuery', a, 0);
        const params = a[1];
        if (!isMapLike(params)) throw utilityError('withQuery: params must be a map');
        const q = queryString(
          'withQuery',
          ownKeys(params).map((k) => [k, readOwn(params, k)] as const),
        );
        if (q === '') return uri;
        const hash = uri.indexOf('#');
        const [base, fragment] = hash < 0 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash)];
        return `${base}${base.includes('?') ? '&' : '?'}${q}${fragment}`;
      },
    },
  },
};

export const uriUtility = uriSpec(null);
