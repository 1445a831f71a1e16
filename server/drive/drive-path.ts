/**
 * Drive paths: what a caller may write, and which root (their own folder, the shared one, another user's)
 * a path names. Only the spelling is checked here; `DriveService` checks where it lands on disk (symlinks).
 *
 * - `reports/a.pdf` is in the caller's own folder;
 * - `shared/reports/a.pdf` is in the shared folder (every signed-in user);
 * - `user/<uuid>/reports/a.pdf` is in that user's folder (the user themself and admins).
 *
 * Refused with PARAM_INVALID (parameter `path`): absolute paths, `.` and `..` segments, empty segments,
 * backslashes, percent-encoded sequences (a path is never decoded twice), NUL and other control characters.
 */
import { isAdmin, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';

export type DriveRoot = { kind: 'shared' } | { kind: 'user'; uuid: string };

export interface DrivePath {
  root: DriveRoot;
  /** The segments below the root (empty for the root itself). */
  segments: string[];
  /** The path as the caller names it, normalised (no trailing slash). */
  display: string;
}

export const SHARED_FOLDER = 'shared';
export const USERS_FOLDER = 'user';
const MAX_PATH_CHARS = 1024;
const MAX_SEGMENT_BYTES = 255;
// eslint-disable-next-line no-control-regex -- NUL and control characters are what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const CONTROL_CHARACTERS_G = new RegExp(CONTROL_CHARACTERS.source, 'g');
const UUID_SEGMENT = /^[A-Za-z0-9-]{1,64}$/;

function refuse(path: string, why: string, parameter: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', `Drive path '${printable(path)}' is refused: ${why}.`, {
    parameter,
  });
}

/** The path as it may appear in a message: control characters shown as escapes, cut at 200 characters. */
function printable(path: string): string {
  const shown = path.replace(
    CONTROL_CHARACTERS_G,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shown.length > 200 ? `${shown.slice(0, 200)}...` : shown;
}

/** The segments of a path written by a caller; throws PARAM_INVALID when its spelling could leave the root. */
export function splitDrivePath(path: string, parameter = 'path'): string[] {
  if (path.length > MAX_PATH_CHARS) throw refuse(path, `longer than ${MAX_PATH_CHARS} characters`, parameter);
  if (CONTROL_CHARACTERS.test(path)) throw refuse(path, 'it contains a control character', parameter);
  if (path.includes('\\')) throw refuse(path, 'it contains a backslash', parameter);
  if (/%[0-9A-Fa-f]{2}/.test(path)) throw refuse(path, 'it contains a percent-encoded sequence', parameter);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) {
    throw refuse(path, 'it is absolute (drive paths are relative: reports/a.pdf)', parameter);
  }
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  if (trimmed === '') return [];
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '') throw refuse(path, 'it has an empty segment', parameter);
    if (segment === '.' || segment === '..') throw refuse(path, `it has a '${segment}' segment`, parameter);
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      throw refuse(path, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`, parameter);
  }
  return segments;
}

/** Parses a caller's path into its root and segments, and checks the caller may use that root. */
export function parseDrivePath(principal: Principal | null, path: string, parameter = 'path'): DrivePath {
  if (!principal) throw new PipeworkError('UNAUTHENTICATED', 'The drive needs a signed-in user.');
  const segments = splitDrivePath(path, parameter);
  const display = segments.join('/');
  if (segments[0] === SHARED_FOLDER)
    return { root: { kind: 'shared' }, segments: segments.slice(1), display };
  if (segments[0] === USERS_FOLDER) {
    const uuid = segments[1];
    if (uuid === undefined || !UUID_SEGMENT.test(uuid))
      throw refuse(path, `'${USERS_FOLDER}/' must be followed by a user's uuid`, parameter);
    if (uuid !== principal.uuid && !isAdmin(principal)) {
      throw new PipeworkError('FORBIDDEN', `Drive path '${display}' is in another user's folder.`, {
        parameter,
      });
    }
    return { root: { kind: 'user', uuid }, segments: segments.slice(2), display };
  }
  return { root: { kind: 'user', uuid: principal.uuid }, segments, display };
}

/** The path of the same root with one more segment (a listing's entries). */
export function childPath(parent: DrivePath, name: string): string {
  return parent.display === '' ? name : `${parent.display}/${name}`;
}
