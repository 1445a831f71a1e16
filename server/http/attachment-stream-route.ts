/**
 * Attachments streamed over the direct command endpoint: `property.attachment.content` answers chunk by chunk
 * with backpressure, and `property.attachment.put` with a raw body streams it into storage. Neither holds the
 * content in memory; other forms of these commands go the usual way through the pipeline runner.
 */
import type { Request, RequestHandler, Response } from 'express';
import { PipeworkError } from '../../shared/errors';
import { type PropertyAttachment, checkAttachmentName } from '../../shared/property';
import { isMultipart, readMultipart } from './multipart';
import type { Principal } from '../../shared/auth';
import type { ServerServices } from '../services';
import { commandNameOf } from './command-routes';
import { MAX_STREAMED_ATTACHMENT_BYTES, withClientFields } from '../commands/property/attachment-support';
export { MAX_STREAMED_ATTACHMENT_BYTES };
import { streamedCommandCall, streamedDirection, streamedForms } from './streamed-command';
import { streamOut } from './send-result';

/** The commands this route has code for; which of them stream, and how, their contracts say (`streaming`). */
export const ATTACHMENT_STREAM_COMMANDS = ['property.attachment.content', 'property.attachment.put'] as const;

async function sendAttachmentContent(
  services: ServerServices,
  principal: Principal | null,
  params: Record<string, unknown>,
  res: Response,
) {
  const { attachment, content } = await services.properties.attachments.open(
    principal,
    params.path ?? params.key,
    String(params.name),
  );
  res.status(200);
  res.attachment(attachment.name); // before Content-Type: it would set one from the name's extension
  res.setHeader('Content-Type', attachment.contentType);
  res.setHeader('Content-Length', String(attachment.length));
  await streamOut(res, content, (error) =>
    services.logger.error({ err: error }, 'attachment download failed mid-stream'),
  );
}

/** Upload limits of a multipart attachment upload: each file part may be as large as a raw upload. */
const MULTIPART_LIMITS = { fileBytes: MAX_STREAMED_ATTACHMENT_BYTES, fieldBytes: 64 * 1024, parts: 100 };

/**
 * A multipart upload (`-F file=@my1.pdf -F file=@my2.pdf`): every `file` part is streamed into an attachment
 * named by its file name. If a part fails (too large, cut off), the attachments this request already added
 * are deleted again, so the upload adds all of its files or none.
 */
async function streamParts(
  services: ServerServices,
  principal: Principal | null,
  params: Record<string, unknown>,
  req: Request,
  res: Response,
) {
  const key = String(params.path ?? params.key);
  const attachments = services.properties.attachments;
  const added: PropertyAttachment[] = [];
  try {
    await readMultipart(req, MULTIPART_LIMITS, async (part) => {
      if (part.field !== 'file') {
        part.stream.resume();
        return;
      }
      const name = checkAttachmentName(part.filename);
      const attachment = await attachments.write(principal, key, name, part.stream, {
        contentType: part.mimeType,
        maxBytes: MAX_STREAMED_ATTACHMENT_BYTES,
      });
      added.push(attachment);
    });
  } catch (error) {
    for (const attachment of added) {
      await attachments.delete(principal, key, attachment.name).catch(() => undefined);
    }
    throw error;
  }
  if (added.length === 0) {
    throw new PipeworkError('PARAM_INVALID', "The multipart body has no part named 'file'.", {
      parameter: 'file',
    });
  }
  res.status(200).json(added.map((attachment) => withClientFields(key, attachment)));
}

export function attachmentStreamHandler(services: ServerServices): RequestHandler {
  const streamed = streamedForms(services.commands, ATTACHMENT_STREAM_COMMANDS);
  return async (req, res, next) => {
    const name = commandNameOf(req);
    const streaming = name === undefined ? undefined : streamed.get(name);
    const direction = streaming && streamedDirection(streaming, req);
    // An upload with the content as a parameter (`content=...`) is no stream: the command route runs it.
    if (!name || !direction || (direction === 'input' && req.query.content !== undefined)) return next();
    try {
      const { principal, params } = streamedCommandCall(services, name, req, res);
      if (direction === 'output') return await sendAttachmentContent(services, principal, params, res);
      if (isMultipart(req)) return await streamParts(services, principal, params, req, res);
      const contentType = params.contentType ?? req.headers['content-type'];
      const attachment = await services.properties.attachments.write(
        principal,
        params.path ?? params.key,
        String(params.name),
        req,
        {
          contentType,
          maxBytes: MAX_STREAMED_ATTACHMENT_BYTES,
        },
      );
      res.status(200).json(withClientFields(String(params.path ?? params.key), attachment));
    } catch (error) {
      if (!res.headersSent) req.resume();
      next(error);
    }
  };
}
