/** The drive's settings: where its files live and how large one may be. */
import { join } from 'node:path';
import { positiveIntFrom } from '../config-env';

export interface DriveConfig {
  /** Folder of the drive's files (`<data>/drive`). */
  dir: string;
  /** Largest file one save may write (`PIPEWORK_MAX_DRIVE_FILE`, default 2 GiB). */
  maxFileBytes: number;
}

export function loadDriveConfig(env: NodeJS.ProcessEnv, dataDir: string): DriveConfig {
  const maxFileBytes = positiveIntFrom(env, 'PIPEWORK_MAX_DRIVE_FILE', 2 * 1024 * 1024 * 1024);
  return { dir: join(dataDir, 'drive'), maxFileBytes };
}
