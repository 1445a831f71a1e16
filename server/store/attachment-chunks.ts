/**
 * The SQL-independent parts of chunked attachments, shared by the SQLite and PostgreSQL stores: the chunk
 * size, the row as the public record, where an uploaded chunk goes, and a streamed upload's pieces re-cut into stored chunks of a fixed size, holding at
 * most about one chunk in memory.
 */
import { PipeworkError } from '../../shared/errors';
import type { PropertyAttachment } from '../../shared/property';

/** Bytes per stored chunk of a streamed upload. */
export const ATTACHMENT_CHUNK_BYTES = 1024 * 1024;

/** The content type of an attachment stored without one. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** An attachment row: the public record and the row id. */
export interface AttachmentRow extends PropertyAttachment {
  id: number;
}

/** The public record of an attachment row. */
export function publicAttachment(row: AttachmentRow): PropertyAttachment {
  const { id: _id, ...rest } = row;
  return rest;
}

/** A Buffer view of the bytes (no copy). */
export function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Where a chunk goes among `chunks`: `index`, by default the end; PARAM_INVALID past the end. */
export function chunkIndex(index: number | undefined, chunks: number): number {
  const at = index ?? chunks;
  if (!Number.isInteger(at) || at < 0 || at > chunks) {
    throw new PipeworkError('PARAM_INVALID', `Chunk index ${at} is out of range 0..${chunks}.`, {
      parameter: 'index',
    });
  }
  return at;
}

/**
 * The content of `source` in chunks of exactly `chunkBytes` (the last one shorter); PAYLOAD_TOO_LARGE as
 * soon as more than `maxBytes` have arrived.
 */
export async function* fixedChunks(
  source: AsyncIterable<Uint8Array>,
  chunkBytes: number,
  maxBytes = Infinity,
): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  let buffered = 0;
  let length = 0;
  const take = (): Buffer => {
    const joined = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, buffered);
    const chunk = joined.subarray(0, chunkBytes);
    const rest = joined.subarray(chunk.length);
    pieces = rest.length > 0 ? [rest] : [];
    buffered = rest.length;
    return chunk;
  };
  for await (const piece of source) {
    length += piece.byteLength;
    if (length > maxBytes) {
      throw new PipeworkError('PAYLOAD_TOO_LARGE', `The attachment is larger than ${maxBytes} bytes.`, {
        maxBytes,
      });
    }
    pieces.push(asBuffer(piece));
    buffered += piece.byteLength;
    while (buffered >= chunkBytes) yield take();
  }
  while (buffered > 0) yield take();
}
