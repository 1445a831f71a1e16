/**
 * A raw request body (a file sent as the body, any type but JSON, text or a form) read as one upload: its
 * length must be declared (`Content-Length`, LENGTH_REQUIRED otherwise), at most the upload limit
 * (PAYLOAD_TOO_LARGE before a byte is read), and it must arrive whole (cut off: BAD_REQUEST, nothing kept).
 */
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { PipeworkError } from '../../shared/errors';
import type { BinaryContent } from '../../shared/values';
import type { UploadSpool } from './upload-spool';

/** What is read and thrown away after a refused upload so the client still gets the answer; past it, the socket closes. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

/** True when the request has a body to stream (not a form, whose fields are parameters). */
export function hasRawBody(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const length = req.headers['content-length'];
  const body = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  return body && type !== 'application/x-www-form-urlencoded';
}

/** Lets the rest of a refused upload go by (up to a bound), so the error reaches the client. */
export function discardUpload(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARD_BYTES) req.destroy();
  });
  req.resume();
}

/**
 * The declared length of a raw upload, checked against `limit` before anything is read: LENGTH_REQUIRED
 * without one, PAYLOAD_TOO_LARGE past the limit.
 */
export function declaredUploadLength(req: IncomingMessage, limit: number): number {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) {
    throw new PipeworkError(
      'LENGTH_REQUIRED',
      'An upload sent as the request body must declare its length (Content-Length); ' +
        'send it with a length or as multipart/form-data.',
    );
  }
  const declared = Number(header);
  if (declared > limit) {
    throw new PipeworkError('PAYLOAD_TOO_LARGE', `The upload is larger than ${limit} bytes.`, {
      limitBytes: limit,
      length: declared,
    });
  }
  return declared;
}

/** The body of a request that ended before its declared length. */
export function cutOff(): PipeworkError {
  return new PipeworkError('BAD_REQUEST', 'The request body was cut off before its declared length.');
}

/** The chunks of the body; a client that goes away mid-body ends it with BAD_REQUEST (not an internal error). */
export async function* bodyChunks(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of req) yield chunk as Buffer;
  } catch {
    throw cutOff();
  }
  if (!req.complete) throw cutOff();
}

/** Reads a raw upload through the spool into a content object. */
export async function readUpload(
  req: Request,
  spool: UploadSpool,
  limit: number,
  mimeType: string,
  name: string | undefined,
): Promise<BinaryContent> {
  let declared: number;
  try {
    declared = declaredUploadLength(req, limit);
  } catch (error) {
    discardUpload(req);
    throw error;
  }
  const content = await spool.take(bodyChunks(req), mimeType, name, declared);
  if (content.size !== declared) throw cutOff();
  return content;
}
