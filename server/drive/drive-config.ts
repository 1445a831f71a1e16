/** The drive's settings: where its files live, how large one may be, and the quotas. */
import { join } from 'node:path';
import { positiveIntFrom } from '../config-env';

export interface DriveConfig {
  /** Folder of the drive's files (`<data>/drive`). */
  dir: string;
  /** Largest file one save may write (`PIPEWORK_MAX_DRIVE_FILE`, default 2 GiB). */
  maxFileBytes: number;
  /** What one root (a user's own folder, the shared folder) may hold (`PIPEWORK_DRIVE_QUOTA_PER_ROOT`, 1 GiB). */
  rootQuotaBytes: number;
  /** What the whole drive may hold (`PIPEWORK_DRIVE_QUOTA_TOTAL`, 10 GiB). */
  totalQuotaBytes: number;
}

export function loadDriveConfig(env: NodeJS.ProcessEnv, dataDir: string): DriveConfig {
  const maxFileBytes = positiveIntFrom(env, 'PIPEWORK_MAX_DRIVE_FILE', 2 * 1024 * 1024 * 1024);
  return {
    dir: join(dataDir, 'drive'),
    maxFileBytes,
    rootQuotaBytes: positiveIntFrom(env, 'PIPEWORK_DRIVE_QUOTA_PER_ROOT', 1024 * 1024 * 1024),
    totalQuotaBytes: positiveIntFrom(env, 'PIPEWORK_DRIVE_QUOTA_TOTAL', 10 * 1024 * 1024 * 1024),
  };
}
