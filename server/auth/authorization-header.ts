/**
 * Reads the `Authorization` header: one credential (`Basic`, `Bearer`, `Refresh`, `Apitoken`) optionally followed by
 * `, RunAs <username>`. Scheme names are case-insensitive. Node keeps only the first of repeated
 * `Authorization` headers, so RunAs travels in the same header, after a comma (no credential contains one).
 */
import { PipeworkError } from '../../shared/errors';

export type PrimaryCredential =
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'bearer'; token: string }
  | { scheme: 'refresh'; token: string }
  | { scheme: 'apitoken'; token: string };

export interface ParsedAuthorization {
  primary: PrimaryCredential;
  /** The user to switch to, when a RunAs part follows. */
  runAs?: string;
}

const MAX_HEADER = 16 * 1024;
const unauthenticated = (message: string) => new PipeworkError('UNAUTHENTICATED', message);

const SCHEME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** `<scheme> <value>`: only the scheme is matched; the value (a token of a kilobyte or more) is not scanned. */
function parsePart(part: string): { scheme: string; value: string } {
  const text = part.trim();
  const space = text.search(/\s/);
  const scheme = space > 0 ? text.slice(0, space) : '';
  const value = space > 0 ? text.slice(space).trim() : '';
  if (!SCHEME.test(scheme) || value === '') throw unauthenticated('Malformed Authorization header.');
  return { scheme: scheme.toLowerCase(), value };
}

function decodeBasic(value: string): PrimaryCredential {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) throw unauthenticated('Malformed Basic credentials.');
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw unauthenticated('Malformed Basic credentials.');
  return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Parses the header; UNAUTHENTICATED when it is missing or malformed, FORBIDDEN for a nested RunAs. */
export function parseAuthorization(header: string | undefined): ParsedAuthorization {
  if (header === undefined || header.trim() === '') throw unauthenticated('Authentication required.');
  if (header.length > MAX_HEADER) throw unauthenticated('Malformed Authorization header.');
  // One credential (no comma) is the common case: no list to split and filter.
  const parts = !header.includes(',')
    ? [parsePart(header)]
    : header
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p.length > 0)
        .map(parsePart);
  const [first, ...rest] = parts;
  if (!first) throw unauthenticated('Authentication required.');
  let primary: PrimaryCredential;
  switch (first.scheme) {
    case 'basic':
      primary = decodeBasic(first.value);
      break;
    case 'bearer':
      primary = { scheme: 'bearer', token: first.value };
      break;
    case 'refresh':
      primary = { scheme: 'refresh', token: first.value };
      break;
    case 'apitoken':
      primary = { scheme: 'apitoken', token: first.value };
      break;
    case 'runas':
      throw unauthenticated(
        'RunAs needs an authenticated user: send Basic, Bearer, Refresh or Apitoken credentials first.',
      );
    default:
      throw unauthenticated(`Unsupported authentication scheme '${first.scheme}'.`);
  }
  if (rest.length === 0) return { primary };
  if (rest.some((p) => p.scheme !== 'runas')) throw unauthenticated('Only one credential may be given.');
  if (rest.length > 1) throw new PipeworkError('FORBIDDEN', 'RunAs cannot be nested.');
  return { primary, runAs: rest[0]!.value };
}
