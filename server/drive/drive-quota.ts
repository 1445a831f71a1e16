/**
 * The drive's quotas: each root (a user's own, and the shared one) holds at most `rootBytes`, the whole drive at
 * most `totalBytes`. Use is measured on disk when a write starts (every file and folder counted by its size
 * rounded up to 4 KiB blocks, as `du` would, so empty files and folders count too) and bytes of writes under
 * way are reserved, so concurrent writes cannot pass the quota together. Past a quota: LIMIT_EXCEEDED and
 * nothing is written.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { PipeworkError } from '../../shared/errors';

const BLOCK = 4096;
const blocks = (bytes: number) => Math.max(1, Math.ceil(bytes / BLOCK)) * BLOCK;

/** Bytes used under `dir` (blocks), leaving out `skip` (the temporary folder, counted as reservations). */
export async function bytesUnder(dir: string, skip?: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    if (skip !== undefined && (path === skip || path.startsWith(skip + sep))) continue;
    if (entry.isDirectory()) total += BLOCK;
    else {
      try {
        total += blocks((await lstat(path)).size);
      } catch {
        // gone meanwhile
      }
    }
  }
  return total;
}

export interface DriveQuotaConfig {
  rootBytes: number;
  totalBytes: number;
}

/** The bytes one write may still add; `add` throws LIMIT_EXCEEDED past a quota. `release` when done. */
export interface Reservation {
  add(bytes: number): void;
  release(): void;
}

function quotaError(what: string, limit: string, limitBytes: number): PipeworkError {
  return new PipeworkError(
    'LIMIT_EXCEEDED',
    `The drive quota is used up: ${what} may hold at most ${limitBytes} bytes.`,
    { limit, limitBytes },
  );
}

export class DriveQuota {
  private readonly pendingByRoot = new Map<string, number>();
  private pendingTotal = 0;

  constructor(
    private readonly baseDir: string,
    private readonly tmpDir: string,
    private readonly config: DriveQuotaConfig,
  ) {}

  /** Starts a write into `rootDir`: measures what is used and reserves as the write adds bytes. */
  async reserve(rootDir: string): Promise<Reservation> {
    const [usedRoot, usedTotal] = await Promise.all([
      bytesUnder(rootDir),
      bytesUnder(this.baseDir, this.tmpDir),
    ]);
    let mine = 0;
    let released = false;
    const change = (delta: number) => {
      mine += delta;
      this.pendingTotal += delta;
      const next = (this.pendingByRoot.get(rootDir) ?? 0) + delta;
      if (next <= 0) this.pendingByRoot.delete(rootDir);
      else this.pendingByRoot.set(rootDir, next);
    };
    return {
      add: (bytes) => {
        if (released || bytes <= 0) return;
        const rootAfter = usedRoot + (this.pendingByRoot.get(rootDir) ?? 0) + bytes;
        const totalAfter = usedTotal + this.pendingTotal + bytes;
        if (rootAfter > this.config.rootBytes) {
          throw quotaError(
            "this drive folder (a user's own or the shared one)",
            'driveRootQuota',
            this.config.rootBytes,
          );
        }
        if (totalAfter > this.config.totalBytes) {
          throw quotaError('the drive as a whole', 'driveTotalQuota', this.config.totalBytes);
        }
        change(bytes);
      },
      release: () => {
        if (released) return;
        released = true;
        change(-mine);
      },
    };
  }

  /** Runs a write with a reservation of `bytes` known beforehand (copies, moves, folders). */
  async withReserved<T>(rootDir: string, bytes: number, write: () => Promise<T>): Promise<T> {
    const reservation = await this.reserve(rootDir);
    try {
      reservation.add(bytes);
      return await write();
    } finally {
      reservation.release();
    }
  }
}
