/**
 * `uri:drive:<path>` for PEL (`@resolve.uri('uri:drive:reports/a.pdf')`): the file's content as bytes, read
 * with the drive's own rules — the caller's own folder and the shared one; another user's folder only for
 * admins (FORBIDDEN otherwise). A missing file is undefined (PEL names it missing).
 */
import type { Principal } from '../../shared/auth';
import type { ServerServices } from '../services';

/** PEL reads a drive file whole and at once: no larger than a mail or a pipeline body should be. */
export const PEL_DRIVE_LIMIT = 16 * 1024 * 1024;

export function driveUriResolver(principal: Principal | null, services: ServerServices) {
  return (path: string): unknown => services.drive.readSync(principal, path, PEL_DRIVE_LIMIT);
}
