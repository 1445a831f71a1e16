/**
 * The drive over the direct command endpoint, streamed: `POST /api/v3/command/drive.save?path=..` writes the
 * request body to disk chunk by chunk (any content type), and `GET /api/v3/command/drive.read?path=..` sends
 * the file with its type, length, name and HTTP range support (Express's `sendFile`). Neither holds the file
 * in memory; other forms of these commands go the usual way through the pipeline runner.
 */
import type { Request, RequestHandler, Response } from 'express';
import { PipeworkError } from '../../shared/errors';
import type { DriveFile } from '../drive';
import type { ServerServices } from '../services';
import { commandNameOf } from './command-routes';
import { streamedCommandCall, streamedDirection, streamedForms } from './streamed-command';

/**
 * The commands this route has code for; which of them stream, and how, their contracts say (`streaming`). A
 * multipart upload to `drive.save` is a content collection, which the contract leaves to the command route.
 */
export const DRIVE_STREAM_COMMANDS = ['drive.save', 'drive.read'] as const;
/** What is read and thrown away after a refused upload so the client still gets the answer; past it, the socket closes. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

/** Lets the rest of a refused upload go by (up to a bound), so the error reaches the client. */
function discardRest(req: Request): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARD_BYTES) req.destroy();
  });
  req.resume();
}

function tooLarge(limit: number): PipeworkError {
  return new PipeworkError('PAYLOAD_TOO_LARGE', `The file is larger than ${limit} bytes.`, {
    limitBytes: limit,
  });
}

/** Sends the file; a range outside it becomes RANGE_NOT_SATISFIABLE with `Content-Range: bytes *\/size`. */
function sendDriveFile(res: Response, { file, entry }: DriveFile): Promise<void> {
  res.attachment(entry.name); // before Content-Type: it would set one from the name's extension
  res.setHeader('Content-Type', entry.mimeType ?? 'application/octet-stream');
  return new Promise((resolve, reject) => {
    res.sendFile(file, { dotfiles: 'allow', acceptRanges: true, cacheControl: false }, (error) => {
      if (!error) return resolve();
      const failure = error as Error & { status?: number; headers?: Record<string, string>; code?: string };
      if (!res.headersSent) {
        res.removeHeader('Content-Disposition');
        res.removeHeader('Content-Type');
      }
      if (failure.status === 416) {
        res.setHeader('Content-Range', failure.headers?.['Content-Range'] ?? `bytes */${entry.size}`);
        return reject(
          new PipeworkError(
            'RANGE_NOT_SATISFIABLE',
            `The range lies outside '${entry.path}' (${entry.size} bytes).`,
          ),
        );
      }
      if (res.headersSent || failure.code === 'ECONNABORTED') {
        res.destroy();
        return resolve();
      }
      reject(error);
    });
  });
}

export function driveStreamHandler(services: ServerServices): RequestHandler {
  const streamed = streamedForms(services.commands, DRIVE_STREAM_COMMANDS);
  return async (req, res, next) => {
    const name = commandNameOf(req);
    const streaming = name === undefined ? undefined : streamed.get(name);
    const direction = streaming && streamedDirection(streaming, req);
    if (!name || !direction) return next();
    try {
      const { principal, params } = streamedCommandCall(services, name, req, res);
      const path = String(params.path ?? '');
      if (direction === 'output') return await sendDriveFile(res, await services.drive.file(principal, path));
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (declared > services.drive.maxFileBytes) throw tooLarge(services.drive.maxFileBytes);
      // Not destroyed when the save stops early: the rest is discarded below so the error can be answered.
      const entry = await services.drive.save(principal, path, req.iterator({ destroyOnReturn: false }));
      res.status(200).json(entry);
    } catch (error) {
      if (!res.headersSent && direction === 'input') discardRest(req);
      next(error);
    }
  };
}
