/**
 * Resolving the real product's URIs in PEL (`@resolve.uri`, `@uri.resolve`, `@convert.lazy`, `@content`): the
 * text is read by the one URI parser (`shared/uri`), then served by `PelUriResolver`, the hook the server fills
 * for the caller: each scheme it serves is a function that applies the caller's permissions. PEL alone serves
 * none and says so. The property filters (`@attribute`, `#field`) are PEL expressions, applied here
 * (`applyUriFilter`), the same for PEL and for commands.
 */
import { type CustomUri, type UserLookup, parseCustomUri } from '../../uri/custom-uri';
import { utilityError } from '../errors';
import { compileUtilityExpression } from './expression-hook';

/** The schemes the server serves; a scheme left out is refused with a clear error. */
export interface PelUriResolver {
  /** The value of a property the caller may read (JSON parsed), or undefined when missing. */
  property?(key: string): unknown;
  /** The whole property as a map (path, uuid, type, value, attachments, ...), for `@attribute` filters. */
  propertyObject?(key: string): Record<string, unknown> | undefined;
  /** A user by `username`, `uuid` or `email` (as the caller may see it), or the caller for `current`; undefined when none. */
  user?(by: PelUserLookup, value: string): unknown;
  /** A drive file's content (the drive fills this in), or undefined when missing or not readable. */
  drive?(path: string): unknown;
  /** The final body of a stored pipeline run as the caller (the server runs it before the step). */
  pipeline?(key: string): unknown;
  /** An http(s) address's content (the server fetches it before the step, through its address guard). */
  http?(url: string): unknown;
}

export type PelUserLookup = UserLookup;

/** The schemes `uri:` may name, in the order the docs list them. */
export const URI_SCHEMES = ['drive', 'property', 'pipeline', 'user'] as const;

function missing(fn: string, what: string): never {
  throw utilityError(`${fn}: ${what} does not exist or you may not read it`);
}

/** Parses a URI for PEL: the message of a malformed one becomes a utility error. */
export function parseUriFor(fn: string, text: string): CustomUri {
  const parsed = parseCustomUri(text);
  if (!parsed.ok) throw utilityError(`${fn}: ${parsed.message}`);
  return parsed.uri;
}

/**
 * Evaluates a filter expression with `target` as its root (bare names are its fields: `attachments.size()`,
 * `name`, `hobbies[0]`). Throws the message to show; callers wrap it in their error kind.
 */
export function applyUriFilter(target: unknown, expression: string): unknown {
  let projection;
  try {
    compileUtilityExpression(expression);
    projection = compileUtilityExpression(`vars.target.![(${expression})]`);
  } catch (e) {
    throw new Error(`the filter '${expression}' is not a valid expression: ${(e as Error).message}`);
  }
  return (
    (projection.evaluate({ body: null, vars: { target: [target] }, headers: {} }) as unknown[])[0] ?? null
  );
}

function filtered(fn: string, target: unknown, expression: string): unknown {
  try {
    return applyUriFilter(target, expression);
  } catch (e) {
    throw utilityError(`${fn}: ${(e as Error).message}`);
  }
}

function served<K extends keyof PelUriResolver>(
  fn: string,
  resolver: PelUriResolver | null,
  scheme: K,
  what: string,
): NonNullable<PelUriResolver[K]> {
  const serve = resolver?.[scheme];
  if (!serve)
    throw utilityError(
      `${fn}: '${what}' cannot be resolved here (it needs the server${scheme === 'drive' ? "'s drive" : ''})`,
    );
  return serve as NonNullable<PelUriResolver[K]>;
}

/** Resolves one URI text (a leading `$` allowed, as in the real product's property values). */
export function resolveUri(fn: string, text: string, resolver: PelUriResolver | null): unknown {
  const uri = parseUriFor(fn, text);
  switch (uri.scheme) {
    case 'property': {
      if (uri.attribute !== undefined) {
        const property = served(fn, resolver, 'propertyObject', 'uri:property:...@')(uri.key);
        if (property === undefined) missing(fn, `the property '${uri.key}'`);
        return filtered(fn, property, uri.attribute);
      }
      const value = served(fn, resolver, 'property', 'uri:property:')(uri.key);
      if (value === undefined) missing(fn, `the property '${uri.key}'`);
      return uri.field === undefined ? value : filtered(fn, value, uri.field);
    }
    case 'user': {
      const user = served(fn, resolver, 'user', 'uri:user:')(uri.by, uri.value);
      if (user === undefined) missing(fn, `the user '${uri.value || 'current'}'`);
      return user;
    }
    case 'drive': {
      const value = served(fn, resolver, 'drive', 'uri:drive:')(uri.path);
      if (value === undefined) missing(fn, `the drive file '${uri.path}'`);
      return value;
    }
    case 'pipeline':
      return served(fn, resolver, 'pipeline', 'uri:pipeline:')(uri.key);
    case 'http':
      return served(fn, resolver, 'http', 'http(s)://')(uri.url);
  }
}
