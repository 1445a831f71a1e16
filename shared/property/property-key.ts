/** The property key rules (DESIGN 7): four roots, safe segments, bounded length; one place checks them all. */
import { PipeworkError } from '../errors';

/** The four top-level folders of the property tree. */
export const PROPERTY_ROOTS = ['global', 'group', 'tenant', 'user'] as const;
export type PropertyRoot = (typeof PROPERTY_ROOTS)[number];

/** Longest key accepted (after the leading `/` is removed). */
export const MAX_KEY_LENGTH = 1024;

const ROOT_SET: ReadonlySet<string> = new Set(PROPERTY_ROOTS);

/** A key split into its parts; `owner` is the uuid folder under `group`, `tenant` and `user`. */
export interface ParsedPropertyKey {
  key: string;
  root: PropertyRoot;
  segments: string[];
  owner?: string;
}

/** True for `[A-Za-z0-9._-]`, the only characters a key segment may hold. */
export function isSegmentChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 46 || // .
    code === 95 || // _
    code === 45 // -
  );
}

export function isPropertyRoot(segment: string): segment is PropertyRoot {
  return ROOT_SET.has(segment);
}

function invalid(raw: unknown, reason: string): PipeworkError {
  const shown = typeof raw === 'string' ? (raw.length > 80 ? `${raw.slice(0, 80)}...` : raw) : String(raw);
  return new PipeworkError('KEY_INVALID', `Invalid property key '${printable(shown)}': ${reason}.`, {
    parameter: 'key',
  });
}

/** The text with control characters made visible, so an error message never carries a NUL or a newline. */
function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += code < 32 || code === 127 ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
  }
  return out;
}

/** Why a single segment is not allowed, or undefined when it is fine. */
export function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'empty segment';
  if (segment === '.' || segment === '..') return `segment '${segment}' is not allowed`;
  for (let i = 0; i < segment.length; i++) {
    if (!isSegmentChar(segment.charCodeAt(i))) {
      return `character '${printable(segment[i]!)}' is not allowed (use A-Z a-z 0-9 . _ -)`;
    }
  }
  return undefined;
}

/**
 * The instance prefix listings put before a key in `path` (`/pipeforce/<instance>/global/...`, as the real
 * product lists them): accepted back and removed, so a client may send a listed path as it got it.
 */
export const INSTANCE_PREFIX_ROOT = 'pipeforce';

function withoutInstancePrefix(key: string): string {
  if (!key.startsWith(`${INSTANCE_PREFIX_ROOT}/`)) return key;
  const second = key.indexOf('/', INSTANCE_PREFIX_ROOT.length + 1);
  return second < 0 ? key : key.slice(second + 1);
}

/** The `path` of a key as listings show it: with the instance prefix. */
export function instancePathOf(key: string, instance: string): string {
  return `/${INSTANCE_PREFIX_ROOT}/${instance}/${key}`;
}

/**
 * Checks a key and returns its parts. A leading `/` is tolerated and removed; everything else that breaks
 * a rule is KEY_INVALID: unknown root, empty, `.` or `..` segment, other characters, over 1,024 characters,
 * or a root with nothing below it.
 */
export function parsePropertyKey(raw: unknown): ParsedPropertyKey {
  if (typeof raw !== 'string') throw invalid(raw, 'a key is a string');
  const key = withoutInstancePrefix(raw.startsWith('/') ? raw.slice(1) : raw);
  if (key.length === 0) throw invalid(raw, 'the key is empty');
  if (key.length > MAX_KEY_LENGTH) throw invalid(raw, `longer than ${MAX_KEY_LENGTH} characters`);
  const segments = key.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw invalid(raw, problem);
  }
  const root = segments[0]!;
  if (!isPropertyRoot(root)) throw invalid(raw, `it must start with one of ${PROPERTY_ROOTS.join(', ')}`);
  if (segments.length < 2) throw invalid(raw, 'a key needs at least one segment below its root folder');
  const parsed: ParsedPropertyKey = { key, root, segments };
  if (root !== 'global') parsed.owner = segments[1];
  return parsed;
}

/** The key in its stored form (leading `/` removed), or KEY_INVALID. */
export function normalizePropertyKey(raw: unknown): string {
  return parsePropertyKey(raw).key;
}

/** True when `raw` is a valid key (no error thrown). */
export function isValidPropertyKey(raw: unknown): boolean {
  try {
    parsePropertyKey(raw);
    return true;
  } catch {
    return false;
  }
}

/** The key of the folder holding `key` (`global/a/b` -> `global/a`), or undefined for a top-level key. */
export function parentKeyOf(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  return slash > 0 ? key.slice(0, slash) : undefined;
}

/** The last segment of a key. */
export function nameOfKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** Longest attachment name accepted. */
export const MAX_ATTACHMENT_NAME_LENGTH = 255;

/** Checks an attachment name (a file name: no `/`, `\`, control characters, `.` or `..`); PARAM_INVALID otherwise. */
export function checkAttachmentName(raw: unknown): string {
  const fail = (reason: string) =>
    new PipeworkError('PARAM_INVALID', `Invalid attachment name: ${reason}.`, { parameter: 'name' });
  if (typeof raw !== 'string' || raw.length === 0) throw fail('a name is a non-empty string');
  if (raw.length > MAX_ATTACHMENT_NAME_LENGTH)
    throw fail(`longer than ${MAX_ATTACHMENT_NAME_LENGTH} characters`);
  if (raw === '.' || raw === '..') throw fail(`'${raw}' is not allowed`);
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 32 || code === 127 || code === 47 || code === 92) throw fail('no /, \\ or control characters');
  }
  return raw;
}
