/**
 * Uploads as content objects without holding them whole: a small upload stays in memory, a larger one is
 * written to a temp file as it arrives and becomes a content object read from that file. The temp files of
 * a request are removed when its response closes (finished, failed or the client gone).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Response } from 'express';
import { PipeworkError } from '../../shared/errors';
import { BinaryContent } from '../../shared/values';
import type { ServerServices } from '../services';

/** Uploads up to this size stay in memory; larger ones are spooled to a temp file. */
export const IN_MEMORY_UPLOAD_BYTES = 256 * 1024;

function tooLarge(limit: number): PipeworkError {
  return new PipeworkError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limit} bytes.`, {
    limitBytes: limit,
  });
}

/** The temp files of one request. */
export class UploadSpool {
  private readonly files = new Set<string>();
  private closed = false;

  constructor(
    private readonly dir: string,
    /** The largest spooled content read whole into memory when a command asks for its bytes. */
    private readonly memoryLimit: number,
  ) {}

  /** How many temp files this request holds now (for tests). */
  get fileCount(): number {
    return this.files.size;
  }

  /**
   * Reads an upload to its end as a content object, at most `maxBytes` (PAYLOAD_TOO_LARGE past it). A failed
   * read (too large, cut off) leaves no temp file.
   */
  async take(
    stream: AsyncIterable<Uint8Array>,
    mimeType: string,
    name: string | undefined,
    maxBytes: number,
  ): Promise<BinaryContent> {
    const held: Uint8Array[] = [];
    let size = 0;
    let file: string | undefined;
    let handle: FileHandle | undefined;
    try {
      for await (const chunk of stream) {
        size += chunk.byteLength;
        if (size > maxBytes) throw tooLarge(maxBytes);
        if (handle) {
          await handle.write(chunk);
          continue;
        }
        held.push(chunk);
        if (size > IN_MEMORY_UPLOAD_BYTES) {
          ({ file, handle } = await this.create());
          for (const piece of held) await handle.write(piece);
          held.length = 0;
        }
      }
      if (!handle) {
        const joined = Buffer.concat(held, size);
        return new BinaryContent(new Uint8Array(joined.buffer, joined.byteOffset, size), mimeType, name);
      }
      await handle.close();
      handle = undefined;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      if (file) await this.remove(file);
      throw error;
    }
    return new BinaryContent(this.sourceOf(file!, size), mimeType, name);
  }

  private async create(): Promise<{ file: string; handle: FileHandle }> {
    if (this.closed) throw new PipeworkError('BAD_REQUEST', 'The request has ended.');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, `${randomUUID()}.upload`);
    this.files.add(file);
    return { file, handle: await open(file, 'wx', 0o600) };
  }

  private sourceOf(file: string, length: number) {
    return {
      length,
      memoryLimit: this.memoryLimit,
      open: () => createReadStream(file) as AsyncIterable<Uint8Array>,
      readAll: () => new Uint8Array(readFileSync(file)),
    };
  }

  private async remove(file: string): Promise<void> {
    this.files.delete(file);
    await rm(file, { force: true });
  }

  /** Removes every temp file of the request; later spooling is refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.files].map((file) => this.remove(file)));
  }
}

/** Where uploads are spooled: a folder of the data folder (the same disk as the drive). */
export function uploadSpoolDir(services: ServerServices): string {
  return join(services.config.dataDir, 'tmp', 'uploads');
}

/** The request's spool, made once and closed when the response closes. */
export function requestSpool(services: ServerServices, res: Response): UploadSpool {
  const existing = res.locals.uploadSpool as UploadSpool | undefined;
  if (existing) return existing;
  const spool = new UploadSpool(uploadSpoolDir(services), services.config.limits.commandBodyBytes);
  res.locals.uploadSpool = spool;
  res.once('close', () => {
    spool.close().catch((error: unknown) => services.logger.warn({ err: error }, 'upload temp file left'));
  });
  return spool;
}
