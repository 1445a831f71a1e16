/**
 * The file-system side of the drive: where a root lives on disk, the symbolic-link check, and the one atomic
 * write (temporary file, fsync, rename, fsync of the folder) that every save and copy goes through.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { PipeworkError } from '../../shared/errors';
import type { DrivePath, DriveRoot } from './drive-path';

/** A path on disk, proven to stay inside its root. */
export interface Located {
  path: DrivePath;
  rootDir: string;
  file: string;
}

export class DriveFiles {
  readonly tmpDir: string;

  constructor(readonly baseDir: string) {
    this.tmpDir = join(baseDir, '.tmp');
  }

  rootDir(root: DriveRoot): string {
    return root.kind === 'shared' ? join(this.baseDir, 'shared') : join(this.baseDir, 'users', root.uuid);
  }

  /** The file behind a drive path; FORBIDDEN when a symbolic link on the way leads out of its root. */
  async locate(path: DrivePath): Promise<Located> {
    const rootDir = this.rootDir(path.root);
    await mkdir(rootDir, { recursive: true, mode: 0o700 });
    const file = join(rootDir, ...path.segments);
    await this.assertInside(rootDir, file, path.display);
    return { path, rootDir, file };
  }

  /** Resolves the deepest existing part of `file` through its links and checks it is still under `rootDir`. */
  async assertInside(rootDir: string, file: string, display: string): Promise<void> {
    const realRoot = await realpath(rootDir);
    let probe = file;
    for (;;) {
      try {
        const real = await realpath(probe);
        if (real !== realRoot && !real.startsWith(realRoot + sep)) {
          throw new PipeworkError(
            'FORBIDDEN',
            `Drive path '${display}' leads out of its folder through a symbolic link.`,
            { parameter: 'path' },
          );
        }
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
        // A dangling link is refused too: writing through it would create its target.
        if (await isLink(probe)) {
          throw new PipeworkError(
            'FORBIDDEN',
            `Drive path '${display}' goes through a dangling symbolic link.`,
            {
              parameter: 'path',
            },
          );
        }
        const parent = dirname(probe);
        if (parent === probe) return;
        probe = parent;
      }
    }
  }

  /**
   * Writes `source` to `target` atomically: a temporary file in the drive's own folder (same file system),
   * fsync, rename over the target, fsync of the target's folder. Past `maxBytes`, PAYLOAD_TOO_LARGE and
   * nothing changes. Chunks are written one at a time, so a streamed source is never held whole.
   */
  async writeAtomically(
    target: string,
    source: AsyncIterable<Uint8Array> | Uint8Array,
    maxBytes: number,
    /** Told of each chunk before it is written; may throw to stop the write (the drive's quota). */
    onChunk: (bytes: number) => void = () => {},
  ): Promise<number> {
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const temp = join(this.tmpDir, `${randomUUID()}.part`);
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    let size = 0;
    try {
      const chunks = source instanceof Uint8Array ? [source] : source;
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          throw new PipeworkError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes.`, {
            limitBytes: maxBytes,
          });
        }
        onChunk(chunk.byteLength);
        await handle.write(chunk);
      }
      await handle.sync();
      await handle.close();
      await rename(temp, target);
      await syncFolder(dirname(target));
      return size;
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** A fresh temporary path in the drive's own folder (for copying folders). */
  async tempPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    return join(this.tmpDir, `${randomUUID()}.part`);
  }
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Makes a rename in `folder` durable. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
