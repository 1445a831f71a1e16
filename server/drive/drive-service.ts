/**
 * The drive: a file store under the data folder with one root per user and a shared one (see drive-path.ts
 * for how paths name them). Every operation checks the caller may use the root and that the path stays in
 * it on disk; writes are atomic.
 */
import { createReadStream, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { cp, lstat, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { detectMimeType } from 'nodemailer/lib/mime-funcs/mime-types';
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { BinaryContent } from '../../shared/values';
import { childPath, parseDrivePath, type DrivePath } from './drive-path';
import type { DriveConfig } from './drive-config';
import { DriveFiles, syncFolder, type Located } from './drive-files';
import { bytesUnder, DriveQuota } from './drive-quota';

export interface DriveEntry {
  name: string;
  path: string;
  type: 'file' | 'folder';
  size: number;
  mimeType?: string;
  modified: string;
}

/** A file ready to be sent: its real location on disk (links resolved) and what to tell the client. */
export interface DriveFile {
  file: string;
  entry: DriveEntry;
}

export function mimeTypeOf(name: string): string {
  return detectMimeType(name) || 'application/octet-stream';
}

function entryOf(path: string, name: string, stats: Stats): DriveEntry {
  const folder = stats.isDirectory();
  return {
    name,
    path,
    type: folder ? 'folder' : 'file',
    size: folder ? 0 : stats.size,
    ...(folder ? {} : { mimeType: mimeTypeOf(name) }),
    modified: stats.mtime.toISOString(),
  };
}

async function statOrNull(file: string): Promise<Stats | null> {
  try {
    return await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

const IN_THE_WAY = new Set(['ENOTDIR', 'EEXIST', 'EISDIR', 'ENOTEMPTY']);

/** A write that meets a file where a folder must be (or the reverse) is the caller's CONFLICT, not a bug. */
async function conflictsAsErrors<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && IN_THE_WAY.has(code)) {
      throw new PipeworkError(
        'CONFLICT',
        `A file or folder on the way to '${path}' is in the way (${code}).`,
        {
          parameter: 'path',
        },
      );
    }
    throw error;
  }
}

function notFound(path: DrivePath): PipeworkError {
  return new PipeworkError('NOT_FOUND', `No file or folder '${path.display}' on the drive.`, {
    parameter: 'path',
  });
}

export class DriveService {
  private readonly files: DriveFiles;
  private readonly quota: DriveQuota;

  constructor(private readonly options: DriveConfig) {
    this.files = new DriveFiles(options.dir);
    this.quota = new DriveQuota(options.dir, this.files.tmpDir, {
      rootBytes: options.rootQuotaBytes,
      totalBytes: options.totalQuotaBytes,
    });
  }

  get maxFileBytes(): number {
    return this.options.maxFileBytes;
  }

  private async locate(principal: Principal | null, path: string, parameter = 'path'): Promise<Located> {
    return this.files.locate(parseDrivePath(principal, path, parameter));
  }

  /** Saves a file (streamed or whole); missing folders on the way are created. Returns its entry. */
  save(
    principal: Principal | null,
    path: string,
    source: AsyncIterable<Uint8Array> | Uint8Array,
  ): Promise<DriveEntry> {
    return conflictsAsErrors(path, () => this.write(principal, path, source));
  }

  private async write(
    principal: Principal | null,
    path: string,
    source: AsyncIterable<Uint8Array> | Uint8Array,
  ): Promise<DriveEntry> {
    const target = await this.locate(principal, path);
    if (target.path.segments.length === 0)
      throw new PipeworkError('PARAM_INVALID', 'drive.save needs a file name, not a root folder.', {
        parameter: 'path',
      });
    const existing = await statOrNull(target.file);
    if (existing?.isDirectory())
      throw new PipeworkError('CONFLICT', `'${target.path.display}' is a folder.`, { parameter: 'path' });
    await mkdir(dirname(target.file), { recursive: true, mode: 0o700 });
    // The folders just made cannot be links, but a race with a local user could: check again.
    await this.files.assertInside(target.rootDir, target.file, target.path.display);
    const reservation = await this.quota.reserve(target.rootDir);
    try {
      await this.files.writeAtomically(target.file, source, this.options.maxFileBytes, reservation.add);
    } finally {
      reservation.release();
    }
    return entryOf(target.path.display, basename(target.file), await stat(target.file));
  }

  /** A file to send; NOT_FOUND when there is none, PARAM_INVALID for a folder. */
  async file(principal: Principal | null, path: string): Promise<DriveFile> {
    const located = await this.locate(principal, path);
    const stats = await statOrNull(located.file);
    if (!stats || located.path.segments.length === 0) throw notFound(located.path);
    if (!stats.isFile())
      throw new PipeworkError('PARAM_INVALID', `'${located.path.display}' is a folder, not a file.`, {
        parameter: 'path',
      });
    return { file: located.file, entry: entryOf(located.path.display, basename(located.file), stats) };
  }

  /** The file as a content object for a pipeline body: its bytes up to `limit`, a reference to the file past it. */
  async read(principal: Principal | null, path: string, limit: number): Promise<BinaryContent> {
    const { file, entry } = await this.file(principal, path);
    if (entry.size > limit) {
      // Too large to hold: a content object that reads the file chunk by chunk when it is used (saved,
      // attached, sent as the result); reading it whole (PEL) is refused past `limit`.
      return new BinaryContent(
        { length: entry.size, memoryLimit: limit, open: () => createReadStream(file) },
        entry.mimeType,
        entry.name,
      );
    }
    const handle = await open(file, 'r');
    try {
      const data = new Uint8Array(entry.size);
      let at = 0;
      while (at < data.length) {
        const { bytesRead } = await handle.read(data, at, data.length - at, at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return new BinaryContent(data.subarray(0, at), entry.mimeType, entry.name);
    } finally {
      await handle.close();
    }
  }

  /**
   * The whole file, read synchronously (for PEL's `uri:drive:`, which cannot wait): undefined when there is
   * no such file or it leads out of its root; FORBIDDEN for another user's folder; PAYLOAD_TOO_LARGE past `limit`.
   */
  readSync(principal: Principal | null, path: string, limit: number): BinaryContent | undefined {
    const drivePath = parseDrivePath(principal, path);
    if (drivePath.segments.length === 0) return undefined;
    const rootDir = this.files.rootDir(drivePath.root);
    let real: string;
    let realRoot: string;
    try {
      realRoot = realpathSync(rootDir);
      real = realpathSync(join(rootDir, ...drivePath.segments));
    } catch {
      return undefined;
    }
    if (!real.startsWith(realRoot + sep)) return undefined;
    const stats = statSync(real);
    if (!stats.isFile()) return undefined;
    if (stats.size > limit)
      throw new PipeworkError(
        'PAYLOAD_TOO_LARGE',
        `'${drivePath.display}' has ${stats.size} bytes, more than a pipeline body may hold (${limit}).`,
        { limit, length: stats.size },
      );
    const name = basename(real);
    return new BinaryContent(
      new Uint8Array(readFileSync(real)),
      mimeTypeOf(name),
      basename(drivePath.display),
    );
  }

  /** The entries of a folder, by name; links that lead out of the root are left out. */
  async list(principal: Principal | null, path: string): Promise<DriveEntry[]> {
    const located = await this.locate(principal, path);
    const stats = await statOrNull(located.file);
    if (!stats) throw notFound(located.path);
    if (!stats.isDirectory()) return [entryOf(located.path.display, basename(located.file), stats)];
    const entries: DriveEntry[] = [];
    for (const dirent of await readdir(located.file, { withFileTypes: true })) {
      const file = join(located.file, dirent.name);
      if (dirent.isSymbolicLink()) {
        try {
          await this.files.assertInside(located.rootDir, file, dirent.name);
        } catch {
          continue;
        }
      }
      const entryStats = await statOrNull(file);
      if (entryStats) entries.push(entryOf(childPath(located.path, dirent.name), dirent.name, entryStats));
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async exists(principal: Principal | null, path: string): Promise<boolean> {
    const located = await this.locate(principal, path);
    return (await statOrNull(located.file)) !== null;
  }

  /** Deletes a file or a folder with everything in it; nothing happens when there is none. */
  async delete(principal: Principal | null, path: string): Promise<boolean> {
    const located = await this.locate(principal, path);
    if (located.path.segments.length === 0)
      throw new PipeworkError('PARAM_INVALID', 'A root folder cannot be deleted.', { parameter: 'path' });
    const existed = (await lstat(located.file).catch(() => null)) !== null;
    if (existed) {
      // Moved aside first, so the path disappears at once even when the tree is large.
      const aside = await this.files.tempPath();
      await rename(located.file, aside);
      await syncFolder(dirname(located.file));
      await rm(aside, { recursive: true, force: true });
    }
    return existed;
  }

  /** Creates a folder; with `recurse` its missing parents too (else NOT_FOUND when the parent is missing). */
  mkdir(principal: Principal | null, path: string, recurse: boolean): Promise<DriveEntry> {
    return conflictsAsErrors(path, () => this.makeFolder(principal, path, recurse));
  }

  private async makeFolder(principal: Principal | null, path: string, recurse: boolean): Promise<DriveEntry> {
    const located = await this.locate(principal, path);
    const existing = await statOrNull(located.file);
    if (existing && !existing.isDirectory())
      throw new PipeworkError('CONFLICT', `'${located.path.display}' is a file.`, { parameter: 'path' });
    if (!existing) {
      if (!recurse && !(await statOrNull(dirname(located.file)))?.isDirectory()) {
        throw new PipeworkError(
          'NOT_FOUND',
          `The parent folder of '${located.path.display}' does not exist (recurse: true creates it).`,
          { parameter: 'path' },
        );
      }
      await this.quota.withReserved(located.rootDir, 4096, () =>
        mkdir(located.file, { recursive: true, mode: 0o700 }),
      );
    }
    return entryOf(located.path.display, basename(located.file), await stat(located.file));
  }

  /** Copies a file or folder into the folder `to`; a file there of the same name is replaced. */
  copy(principal: Principal | null, path: string, to: string): Promise<DriveEntry> {
    return conflictsAsErrors(to, () => this.transfer(principal, path, to, 'copy'));
  }

  /** Moves a file or folder into the folder `to`. */
  move(principal: Principal | null, path: string, to: string): Promise<DriveEntry> {
    return conflictsAsErrors(to, () => this.transfer(principal, path, to, 'move'));
  }

  private async transfer(
    principal: Principal | null,
    path: string,
    to: string,
    mode: 'copy' | 'move',
  ): Promise<DriveEntry> {
    const source = await this.locate(principal, path);
    const sourceStats = await statOrNull(source.file);
    if (!sourceStats || source.path.segments.length === 0) throw notFound(source.path);
    const folder = await this.locate(principal, to, 'to');
    const name = basename(source.file);
    const target = await this.files.locate({
      root: folder.path.root,
      segments: [...folder.path.segments, name],
      display: childPath(folder.path, name),
    });
    if (target.file === source.file) return entryOf(target.path.display, name, sourceStats);
    if (target.file.startsWith(source.file + '/'))
      throw new PipeworkError('PARAM_INVALID', `'${source.path.display}' cannot go into itself.`, {
        parameter: 'to',
      });
    const existing = await statOrNull(target.file);
    if (existing?.isDirectory() || (existing && sourceStats.isDirectory()))
      throw new PipeworkError('CONFLICT', `'${target.path.display}' already exists.`, { parameter: 'to' });
    await mkdir(folder.file, { recursive: true, mode: 0o700 });
    await this.files.assertInside(folder.rootDir, target.file, target.path.display);
    // A copy adds its bytes; a move adds them to the target's root when it leaves its own.
    const adds = mode === 'copy' || source.rootDir !== folder.rootDir;
    const bytes = !adds ? 0 : sourceStats.isDirectory() ? await bytesUnder(source.file) : sourceStats.size;
    await this.quota.withReserved(folder.rootDir, bytes, () =>
      this.place(source.file, target.file, sourceStats, mode),
    );
    await syncFolder(folder.file);
    return entryOf(target.path.display, name, await stat(target.file));
  }

  private async place(from: string, to: string, sourceStats: Stats, mode: 'copy' | 'move'): Promise<void> {
    if (mode === 'move') {
      await rename(from, to);
    } else if (!sourceStats.isDirectory()) {
      await this.files.writeAtomically(to, createReadStream(from), Number.POSITIVE_INFINITY);
    } else {
      const temp = await this.files.tempPath();
      try {
        await cp(from, temp, { recursive: true, verbatimSymlinks: true });
        await rename(temp, to);
      } catch (error) {
        await rm(temp, { recursive: true, force: true });
        throw error;
      }
    }
  }
}
