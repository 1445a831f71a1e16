/** Writes a command's or pipeline's final body with the status and content type of its kind. */
import type { Response } from 'express';
import { PipeworkError } from '../../shared/errors';
import { describeJsonRefusal, isBinaryContent, stringifyBounded } from '../../shared/values';

/** The largest JSON answer: past it, LIMIT_EXCEEDED instead of a server that runs out of memory. */
export const MAX_RESPONSE_JSON_CHARS = 64 * 1024 * 1024;

/**
 * JSON for objects, arrays, numbers and booleans; text for strings; bytes as they are. Nothing (null) is
 * `200` with an empty body and no `Content-Type`, as the real product answers: its clients treat every other
 * status as a failure. (An empty string is `text/plain` with an empty body.)
 */
export function sendResult(res: Response, value: unknown): void {
  if (value === null || value === undefined) {
    res.status(200).setHeader('Content-Length', '0');
    res.end();
    return;
  }
  if (typeof value === 'string') {
    res.type('text/plain; charset=utf-8').send(value);
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
    res.end(Buffer.from(value.data.buffer, value.data.byteOffset, value.data.byteLength));
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
  res.type('application/json; charset=utf-8').send(json.text);
}
