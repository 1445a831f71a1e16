/** The drive's settings: where its files live and how large one may be. */
import { join } from 'node:path';

export interface DriveConfig {
  /** Folder of the drive's files (`<data>/drive`). */
  dir: string;
  /** Largest file one save may write (`PIPEWORK_MAX_DRIVE_FILE`, default 2 GiB). */
  maxFileBytes: number;
}

export function loadDriveConfig(env: NodeJS.ProcessEnv, dataDir: string): DriveConfig {
  const raw = env.PIPEWORK_MAX_DRIVE_FILE;
  const maxFileBytes = raw === undefined || raw === '' ? 2 * 1024 * 1024 * 1024 : Number(raw);
  if (!Number.isInteger(maxFileBytes) || maxFileBytes <= 0)
    throw new Error(`PIPEWORK_MAX_DRIVE_FILE must be a positive integer, got '${raw}'`);
  return { dir: join(dataDir, 'drive'), maxFileBytes };
}
