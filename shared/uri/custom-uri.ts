/**
 * The one reading of the real product's custom URIs (`api/uris.md`): `$uri:property:<key>[@attribute | #field]`,
 * `$uri:pipeline:<key>`, `$uri:drive:[/]<path>`, `$uri:user:<username> | uuid=<uuid>` and plain `http(s)://`
 * addresses. Parsing only: what each form loads is decided where it is resolved (PEL's `@resolve.uri` in
 * `shared/pel/utilities/resolve.ts`, commands in `server/uri/`), both over this result.
 */

export type UserLookup = 'current' | 'username' | 'uuid' | 'email';

export type CustomUri =
  | {
      scheme: 'property';
      key: string;
      /** A PEL expression over the whole property (`@value`, `@attachments.size()`). */
      attribute?: string;
      /** A PEL expression over the property's JSON value (`#name`, `#hobbies.size()`). */
      field?: string;
    }
  | { scheme: 'pipeline'; key: string }
  | { scheme: 'drive'; path: string }
  | { scheme: 'user'; by: UserLookup; value: string }
  | { scheme: 'http'; url: string };

export type CustomUriScheme = CustomUri['scheme'];

/** The forms in the order the reference lists them (for messages and the editor). */
export const CUSTOM_URI_FORMS = [
  '$uri:drive:<path>',
  '$uri:property:<key>[@attribute|#field]',
  '$uri:pipeline:<key>',
  '$uri:user:<username>|uuid=<uuid>',
  'http(s)://...',
] as const;

export type ParsedUri = { ok: true; uri: CustomUri } | { ok: false; message: string };

const HTTP = /^https?:\/\//i;
const CUSTOM = /^\$?uri:([a-zA-Z][a-zA-Z0-9-]*)(?::([\s\S]*))?$/;

function fail(message: string): ParsedUri {
  return { ok: false, message };
}

/** True when the text is a custom URI (`$uri:...` or `uri:...`), valid or not; plain addresses are not. */
export function isCustomUriText(text: string): boolean {
  return /^\$?uri:/.test(text.trim());
}

/** True when the text is meant as a URI (`$uri:...`, `uri:...`, `http(s)://...`), valid or not. */
export function looksLikeUri(text: string): boolean {
  const t = text.trim();
  return /^\$?uri:/.test(t) || HTTP.test(t);
}

/** A property key as the forms write it: leading slashes dropped. */
function keyOf(text: string): string {
  return text.trim().replace(/^\/+/, '');
}

function propertyUri(rest: string, shown: string): ParsedUri {
  const cut = rest.search(/[@#]/);
  const key = keyOf(cut < 0 ? rest : rest.slice(0, cut));
  if (key === '') return fail(`'${shown}' names no property key`);
  if (cut < 0) return { ok: true, uri: { scheme: 'property', key } };
  const expression = rest.slice(cut + 1).trim();
  if (expression === '')
    return fail(`'${shown}': the ${rest[cut] === '@' ? 'attribute (@)' : 'field (#)'} filter is empty`);
  return {
    ok: true,
    uri:
      rest[cut] === '@'
        ? { scheme: 'property', key, attribute: expression }
        : { scheme: 'property', key, field: expression },
  };
}

/** `uri:user:` then '' or 'current', 'uuid=x', 'username:x' / 'uuid:x' / 'email:x', or a bare username. */
function userUri(rest: string): ParsedUri {
  const ref = rest.trim();
  if (ref === '' || ref === 'current') return { ok: true, uri: { scheme: 'user', by: 'current', value: '' } };
  const m = /^(username|uuid|email)[:=]([\s\S]*)$/.exec(ref);
  const [by, value] = m ? [m[1] as UserLookup, m[2]!.trim()] : (['username', ref] as const);
  if (value === '') return fail(`'uri:user:${ref}' names no user`);
  return { ok: true, uri: { scheme: 'user', by, value } };
}

/** Reads one URI text; `{ ok: false, message }` says what is wrong (each caller raises its own error kind). */
export function parseCustomUri(text: string): ParsedUri {
  const t = text.trim();
  const shown = t.length > 200 ? `${t.slice(0, 200)}...` : t;
  if (HTTP.test(t)) return { ok: true, uri: { scheme: 'http', url: t } };
  const m = CUSTOM.exec(t);
  if (!m) return fail(`'${shown}' is not a URI (such as $uri:property:global/app/x)`);
  const scheme = m[1]!.toLowerCase();
  const rest = m[2] ?? '';
  switch (scheme) {
    case 'property':
      return propertyUri(rest, shown);
    case 'pipeline': {
      const key = keyOf(rest);
      return key === ''
        ? fail(`'${shown}' names no pipeline`)
        : { ok: true, uri: { scheme: 'pipeline', key } };
    }
    case 'drive': {
      const path = keyOf(rest);
      return path === ''
        ? fail(`'${shown}' names no drive file`)
        : { ok: true, uri: { scheme: 'drive', path } };
    }
    case 'user':
      return userUri(rest);
    default:
      return fail(`the URI form 'uri:${scheme}:' does not exist (use ${CUSTOM_URI_FORMS.join(', ')})`);
  }
}

/**
 * The key of a stored pipeline as `call` and `pipeline.start` accept it: `$uri:property:<key>`,
 * `$uri:pipeline:<key>`, `property:<key>` or the key itself. Undefined for another URI form (the message says
 * which); filters (`@`, `#`) make no sense on a pipeline to run and are refused too.
 */
export function storedPipelineKey(text: string): { key: string } | { message: string } {
  const t = text.trim();
  if (!looksLikeUri(t)) {
    const key = keyOf(t.replace(/^property:/, ''));
    if (/^[a-z][a-z0-9+.-]*:/i.test(key))
      return {
        message: `'${key.slice(0, 200)}' is not a stored pipeline (property:<key> or $uri:pipeline:<key>)`,
      };
    return { key };
  }
  const parsed = parseCustomUri(t);
  if (!parsed.ok) return { message: parsed.message };
  const { uri } = parsed;
  if (uri.scheme === 'pipeline') return { key: uri.key };
  if (uri.scheme === 'property' && uri.attribute === undefined && uri.field === undefined)
    return { key: uri.key };
  return {
    message: `'${t.slice(0, 200)}' is not a stored pipeline (property:<key> or $uri:pipeline:<key>)${
      uri.scheme === 'http' ? '; use http.get or http.post for remote URLs' : ''
    }`,
  };
}
