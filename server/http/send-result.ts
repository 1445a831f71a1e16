/**
 * Writes a command's or pipeline's final body with the status and content type of its kind; a content object with
 * its type, length and file name, streamed when it is not in memory.
 */
import type { Response } from 'express';
import { PipeworkError } from '../../shared/errors';
import { describeJsonRefusal, isBinaryContent, stringifyBounded } from '../../shared/values';

/** Resolves when the response wants more or has closed; removes both listeners again (no leak per chunk). */
export function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a stream as the body with backpressure. Headers are out once the first byte is: a failure later can
 * only break the connection (the client sees fewer bytes than Content-Length), and is told to `onBroken`.
 */
export async function streamOut(
  res: Response,
  content: AsyncIterable<Uint8Array>,
  onBroken?: (error: unknown) => void,
): Promise<void> {
  let closed = false;
  res.once('close', () => (closed = true));
  try {
    for await (const chunk of content) {
      if (closed) return;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  } catch (error) {
    if (!res.headersSent) throw error;
    onBroken?.(error);
    res.destroy(error as Error);
  }
}

/** The largest JSON answer: past it, LIMIT_EXCEEDED instead of a server that runs out of memory. */
export const MAX_RESPONSE_JSON_CHARS = 64 * 1024 * 1024;

/**
 * JSON for objects, arrays, numbers and booleans; text for strings; bytes as they are. Nothing (null) is
 * `200` with an empty body and no `Content-Type`, as the real product answers: its clients treat every other
 * status as a failure. (An empty string is `text/plain` with an empty body.)
 */
export async function sendResult(res: Response, value: unknown): Promise<void> {
  if (value === null || value === undefined) {
    res.status(200).setHeader('Content-Length', '0');
    res.end();
    return;
  }
  if (typeof value === 'string') {
    sendText(res, 'text/plain; charset=utf-8', value);
    return;
  }
  if (isBinaryContent(value)) {
    // `attachment` guesses a type from the file name: set ours after it.
    if (value.name) res.attachment(value.name);
    // A type that cannot be a header (text outside printable ASCII, e.g. stored before types were checked).
    res.setHeader(
      'Content-Type',
      /^[\x20-\x7e]+$/.test(value.mimeType) ? value.mimeType : 'application/octet-stream',
    );
    res.setHeader('Content-Length', String(value.size));
    if (value.inMemory) {
      res.end(Buffer.from(value.data.buffer, value.data.byteOffset, value.data.byteLength));
      return;
    }
    await streamOut(res, value.stream());
    return;
  }
  if (value instanceof Uint8Array) {
    res.type('application/octet-stream').end(Buffer.from(value));
    return;
  }
  const json = stringifyBounded(value, MAX_RESPONSE_JSON_CHARS);
  if (!json.ok) {
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `The result ${describeJsonRefusal(json.reason, MAX_RESPONSE_JSON_CHARS)}.`,
      {
        limit: 'response',
      },
    );
  }
  sendText(res, 'application/json; charset=utf-8', json.text);
}

/**
 * A text answer as it is: no ETag (Express's `send` hashes every body for one; a run's answer is not a
 * cacheable document, and the real product's documentation names no conditional requests).
 */
function sendText(res: Response, contentType: string, text: string): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
