/**
 * The `uri:` forms of the real product (`uri:property:<key>#field`, `uri:user:...`, `uri:drive:<path>`), resolved
 * through `PelUriResolver`, the hook the server fills for the caller: each scheme it serves is a function that
 * applies the caller's permissions. PEL alone serves none and says so; unknown forms are refused by name.
 */
import { utilityError } from '../errors';
import { pathSteps, readPath } from './data';

/** The schemes the server serves; a scheme left out is refused with a clear error. */
export interface PelUriResolver {
  /** The value of a property the caller may read (JSON parsed), or undefined when missing or not readable. */
  property?(key: string): unknown;
  /** A user by `username`, `uuid` or `email` (as the caller may see it), or the caller for `current`; undefined when none. */
  user?(by: PelUserLookup, value: string): unknown;
  /** A drive file's content (the drive fills this in), or undefined when missing or not readable. */
  drive?(path: string): unknown;
}

export type PelUserLookup = 'current' | 'username' | 'uuid' | 'email';

/** The schemes `uri:` may name, in the order the docs list them. */
export const URI_SCHEMES = ['property', 'user', 'drive'] as const;

function missing(fn: string, what: string): never {
  throw utilityError(`${fn}: ${what} does not exist or you may not read it`);
}

/** `uri:user:<ref>`: 'current' (or nothing), 'username:x', 'uuid=x', 'email:x', or a bare username. */
function userRef(ref: string): [PelUserLookup, string] {
  if (ref === '' || ref === 'current') return ['current', ''];
  const m = /^(username|uuid|email)[:=](.*)$/.exec(ref);
  return m ? [m[1] as PelUserLookup, m[2]!] : ['username', ref];
}

/** Resolves one `uri:` text (a leading `$` allowed, as in the real product's property values). */
export function resolveUri(fn: string, uri: string, resolver: PelUriResolver | null): unknown {
  const text = uri.startsWith('$') ? uri.slice(1) : uri;
  const m = /^uri:([a-zA-Z][a-zA-Z0-9-]*):?([\s\S]*)$/.exec(text);
  if (!m) throw utilityError(`${fn}: '${uri}' is not a uri: reference (such as 'uri:property:global/app/x')`);
  const scheme = m[1]!.toLowerCase();
  const rest = m[2]!;
  if (!(URI_SCHEMES as readonly string[]).includes(scheme))
    throw utilityError(
      `${fn}: the form 'uri:${scheme}:' is not supported (only ${URI_SCHEMES.map((s) => `uri:${s}:`).join(', ')})`,
    );
  const serve = resolver?.[scheme as (typeof URI_SCHEMES)[number]];
  if (!resolver || !serve)
    throw utilityError(
      `${fn}: 'uri:${scheme}:' cannot be resolved here (it needs the server${scheme === 'drive' ? "'s drive" : ''})`,
    );
  switch (scheme) {
    case 'property': {
      const hash = rest.indexOf('#');
      const key = hash < 0 ? rest : rest.slice(0, hash);
      if (key === '') throw utilityError(`${fn}: '${uri}' names no property key`);
      const value = resolver.property!(key);
      if (value === undefined) missing(fn, `the property '${key}'`);
      return hash < 0 ? value : readPath(value, pathSteps(fn, rest.slice(hash + 1)));
    }
    case 'user': {
      const [by, value] = userRef(rest);
      const user = resolver.user!(by, value);
      if (user === undefined) missing(fn, `the user '${rest || 'current'}'`);
      return user;
    }
    default: {
      const value = resolver.drive!(rest);
      if (value === undefined) missing(fn, `the drive file '${rest}'`);
      return value;
    }
  }
}
