/**
 * `multipart/form-data` bodies, read with busboy as they arrive: each part is handed on as a stream (the
 * caller decides whether it streams it into storage or collects it within a limit), text fields are kept
 * (small, bounded). A body without a boundary, a part over its limit, too many parts or a cut-off body is a
 * clear error in the contract's shape.
 */
import type { Request } from 'express';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { PipeworkError } from '../../shared/errors';
import type { BinaryContent } from '../../shared/values';
import type { UploadSpool } from './upload-spool';

export interface MultipartFile {
  /** The part's name (`file` for uploads). */
  field: string;
  filename: string;
  mimeType: string;
  stream: Readable;
}

export interface MultipartLimits {
  /** Largest file part, in bytes. */
  fileBytes: number;
  /** Largest text field, in bytes. */
  fieldBytes: number;
  /** Most parts (fields and files) in one body. */
  parts: number;
}

export function isMultipart(req: Request): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
}

const partTooLarge = (limit: number) =>
  new PipeworkError('PAYLOAD_TOO_LARGE', `A part of the multipart body is larger than ${limit} bytes.`, {
    limitBytes: limit,
  });

/**
 * Reads the body; `onFile` is awaited for each file part in order (its stream must be consumed). Resolves
 * with the text fields once the whole body is read and every `onFile` has finished.
 */
export function readMultipart(
  req: Request,
  limits: MultipartLimits,
  onFile: (file: MultipartFile) => Promise<void>,
): Promise<Record<string, string>> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { fileSize: limits.fileBytes, fieldSize: limits.fieldBytes, parts: limits.parts },
    });
  } catch (error) {
    req.resume();
    return Promise.reject(
      new PipeworkError('BAD_REQUEST', `The multipart body cannot be read: ${(error as Error).message}.`),
    );
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let chain: Promise<void> = Promise.resolve();
    let failed = false;
    let firstError: unknown;
    let settled = false;
    // Settles only once every part handler has finished: a caller cleaning up after a failure must not race
    // a write still in flight. The rest of a failed body still flows through the parser and is thrown away.
    const settle = () => {
      void chain.then(() => {
        if (settled) return;
        settled = true;
        if (failed) reject(firstError);
        else resolve(fields);
      });
    };
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      firstError = error;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(partTooLarge(limits.fieldBytes));
      fields[name] = value;
    });
    let current: Readable | undefined;
    parser.on('file', (field, stream, info) => {
      current = stream;
      stream.on('limit', () => fail(partTooLarge(limits.fileBytes)));
      const file: MultipartFile = {
        field,
        filename: info.filename ?? field,
        mimeType: info.mimeType || 'application/octet-stream',
        stream,
      };
      // Parts are handled one after the other; while one is handled, busboy waits (backpressure).
      chain = chain
        .then(async () => {
          if (failed) return void stream.resume();
          await onFile(file);
          // A part cut at its limit ended early: what was made of it is not the whole part.
          if ((stream as Readable & { truncated?: boolean }).truncated) throw partTooLarge(limits.fileBytes);
        })
        .catch((error: unknown) => {
          stream.resume();
          fail(error);
        });
    });
    parser.on('partsLimit', () =>
      fail(new PipeworkError('PAYLOAD_TOO_LARGE', `The multipart body has more than ${limits.parts} parts.`)),
    );
    parser.on('error', (error: Error) => {
      fail(new PipeworkError('BAD_REQUEST', `The multipart body cannot be read: ${error.message}.`));
      req.unpipe(parser);
      req.resume();
      settle();
    });
    parser.on('close', settle);
    // A body cut off by the client: the part being read ends with an error, so its handler stops and cleans up.
    req.on('close', () => {
      if (req.complete) return;
      const cutOff = new PipeworkError('BAD_REQUEST', 'The request body was cut off.');
      fail(cutOff);
      if (current && !current.readableEnded) current.destroy(cutOff);
      settle();
    });
    req.pipe(parser);
  });
}

/**
 * A multipart body as a content collection: each `file` part a content object with its name and type, streamed
 * through the request's spool (in memory when small, a temp file otherwise), each at most `fileBytes`; the
 * other parts' text as fields.
 */
export async function readContentCollection(
  req: Request,
  spool: UploadSpool,
  fileBytes: number,
): Promise<{ files: BinaryContent[]; fields: Record<string, string> }> {
  const files: BinaryContent[] = [];
  const fields = await readMultipart(
    req,
    { fileBytes, fieldBytes: 1024 * 1024, parts: 100 },
    async (part) => {
      if (part.field !== 'file') return void part.stream.resume();
      files.push(await spool.take(part.stream, part.mimeType, part.filename, fileBytes));
    },
  );
  return { files, fields };
}
