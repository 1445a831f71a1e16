/** Reads a request body into memory up to a limit; past it, PAYLOAD_TOO_LARGE, and the server keeps serving. */
import type { IncomingMessage } from 'node:http';
import { PipeworkError } from '../../shared/errors';

/** What we read and throw away after a refusal so the client still gets the answer; past it, the socket closes. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

function tooLarge(limit: number): PipeworkError {
  return new PipeworkError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes.`, {
    limitBytes: limit,
  });
}

/** Lets the rest of a refused body go by, so the 413 reaches the client; cuts off absurd senders. */
function discardRest(req: IncomingMessage, alreadyRead: number): void {
  let discarded = alreadyRead;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARD_BYTES) req.destroy();
  });
  req.resume();
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    discardRest(req, 0);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        discardRest(req, size);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new PipeworkError('BAD_REQUEST', `The request body could not be read: ${error.message}`));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
