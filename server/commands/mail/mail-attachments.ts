/**
 * The attachments of `mail.send`: drive paths (`reports/a.pdf` or `uri:drive:reports/a.pdf`, comma-separated
 * or a list), bytes (an expression such as `#{body}` that gives a file), or, when the parameter is absent and
 * the body is a file, the body. Drive files are streamed from disk by nodemailer, never read whole.
 */
import type Mail from 'nodemailer/lib/mailer';
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent, type BinaryContent } from '../../../shared/values';
import { headerText } from '../../mail';
import type { ServerServices } from '../../services';
import { isCustomUriText } from '../../../shared/uri/custom-uri';
import { parseUriParameter, resolveParsedUri, uriValueAsText } from '../../uri/resolve-uri';

type MailContext = CommandContext<ServerServices>;

function fromBytes(content: BinaryContent, index: number): Mail.Attachment {
  const filename = headerText(content.name, 'attachments') ?? `attachment-${index + 1}`;
  return {
    filename,
    content: Buffer.from(content.data.buffer, content.data.byteOffset, content.data.byteLength),
    contentType: content.mimeType,
  };
}

/** A drive path (streamed from disk) or a URI: `$uri:drive:` streamed too, `$uri:property:` / `$uri:pipeline:` loaded. */
async function fromReference(ctx: MailContext, reference: string, index: number): Promise<Mail.Attachment> {
  let path = reference.trim();
  if (isCustomUriText(path)) {
    const uri = parseUriParameter(path, 'attachments', ['drive', 'property', 'pipeline']);
    if (uri.scheme !== 'drive') {
      const value = await resolveParsedUri(ctx, uri, 'attachments');
      const name = ('key' in uri ? uri.key.split('/').pop() : undefined) ?? `attachment-${index + 1}`;
      if (isBinaryContent(value))
        return { ...fromBytes(value, index), filename: headerText(value.name, 'attachments') ?? name };
      return {
        filename: name,
        content: uriValueAsText(value),
        contentType: typeof value === 'string' ? 'text/plain' : 'application/json',
      };
    }
    path = uri.path;
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Attachment '${path.slice(0, 200)}': attach drive paths, $uri:drive:, $uri:property: or $uri:pipeline: references, or files in the body.`,
      { parameter: 'attachments' },
    );
  }
  const { file, entry } = await ctx.services.drive.file(ctx.principal, path);
  return { filename: entry.name, path: file, contentType: entry.mimeType };
}

/** The attachments to send, in the order given. */
export async function attachmentsOf(ctx: MailContext): Promise<Mail.Attachment[]> {
  const param = ctx.params.attachments;
  if (param === undefined || param === null || param === '') {
    return isBinaryContent(ctx.input) ? [fromBytes(ctx.input, 0)] : [];
  }
  const items = Array.isArray(param) ? param : [param];
  const out: Mail.Attachment[] = [];
  for (const item of items) {
    if (isBinaryContent(item)) out.push(fromBytes(item, out.length));
    else if (typeof item === 'string') {
      for (const reference of item.split(',').filter((r) => r.trim() !== ''))
        out.push(await fromReference(ctx, reference, out.length));
    } else {
      throw new PipeworkError('PARAM_INVALID', 'An attachment is a drive path or a file (bytes).', {
        parameter: 'attachments',
      });
    }
  }
  return out;
}
