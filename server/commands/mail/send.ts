/** `mail.send`: one mail, over SMTP (PIPEWORK_SMTP_URL) or into the outbox. */
import type Mail from 'nodemailer/lib/mailer';
import { defineCommand, type CommandContext, type JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';
import { addressList, headerText, type MailAddress, type SmtpAuth } from '../../mail';
import type { ServerServices } from '../../services';
import { attachmentsOf } from './mail-attachments';
import { modelOf, renderTemplate, templateOf } from './mail-template';
import { runMaskOf } from '../../runs/run-scope';

const ADDRESSES = (what: string): JsonSchema => ({
  type: ['string', 'array'],
  items: { type: 'string' },
  description: `${what}: comma-separated addresses (ann@example.com, Ann <ann@example.com>) or a list of them.`,
});

/** HTML when `html` says so, else when the message starts with a tag. */
function isHtml(message: string, html: unknown): boolean {
  if (typeof html === 'boolean') return html;
  return /^\s*<[a-zA-Z!]/.test(message);
}

function messageOf(ctx: CommandContext<ServerServices>): string {
  const message = ctx.params.message;
  if (message !== undefined && message !== null)
    return typeof message === 'string' ? message : JSON.stringify(message);
  const body = ctx.input;
  if (body === null || body === undefined || isBinaryContent(body)) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The SMTP login of the `secret` parameter: a username-password secret. */
async function smtpAuthOf(ctx: CommandContext<ServerServices>): Promise<SmtpAuth | undefined> {
  if (ctx.params.secret === undefined) return undefined;
  if (!ctx.principal) throw new PipeworkError('UNAUTHENTICATED', 'A secret needs an authenticated caller.');
  const material = await ctx.services.secrets.use(
    runMaskOf(ctx.services),
    ctx.principal,
    String(ctx.params.secret),
  );
  if (material.format !== 'username-password')
    throw new PipeworkError(
      'PARAM_INVALID',
      `Secret '${String(ctx.params.secret)}' is ${material.format}: mail.send logs in with a username-password secret.`,
      { parameter: 'secret' },
    );
  return { user: material.username, pass: material.password };
}

const asMailbox = (a: MailAddress): Mail.Address | string =>
  a.name ? { name: a.name, address: a.address } : a.address;

export const mailSend = defineCommand<ServerServices>(
  {
    name: 'mail.send',
    summary:
      'Sends a mail (text or HTML, with attachments) over SMTP, or into the outbox when no SMTP server is set.',
    description:
      'The SMTP server is PIPEWORK_SMTP_URL (smtp://user:password@host:587, smtps://... for TLS); without it ' +
      'the mail is written as an .eml file to the outbox (mail.outbox.list, mail.outbox.read). The message is ' +
      'the `message` parameter, else a text body; it is sent as HTML when it starts with a tag (or html: true). ' +
      'Attachments are drive paths (reports/a.pdf, uri:drive:reports/a.pdf; comma-separated or a list) or files ' +
      'given as an expression (#{body}); without the parameter a file in the body is attached. Line breaks in ' +
      'header values and malformed addresses are refused (PARAM_INVALID); a failing SMTP server is UPSTREAM_FAILED. ' +
      'A message or subject given as uri:property:<key> (or uri:drive:<path>) is a template, read with your ' +
      'permissions and rendered with `model` in scope: #{model.field} (PEL) first, then FreeMarker as in ' +
      'transform.ftl (${field}, ${model.field}, <#if>, <#list>, built-ins); without a model its names are body, ' +
      'vars and headers. A template error is PARAM_INVALID, a template past its budget LIMIT_EXCEEDED. ' +
      'Answers {messageId, accepted, rejected} (and outbox, the file name, for the outbox).',
    parameters: {
      to: ADDRESSES('Recipients'),
      secret: {
        type: 'string',
        minLength: 1,
        description:
          'The name of a username-password secret to log in to the SMTP server with (PIPEWORK_SMTP_URL); its password is never shown.',
      },
      cc: ADDRESSES('Copy recipients'),
      bcc: ADDRESSES('Blind copy recipients'),
      from: { type: 'string', description: 'The sender address; PIPEWORK_MAIL_FROM by default.' },
      fromName: { type: 'string', description: 'The sender name; PIPEWORK_MAIL_FROM_NAME by default.' },
      subject: { type: 'string', description: 'The subject.' },
      message: {
        type: ['string', 'number', 'boolean', 'object', 'array'],
        description: 'The message; by default the body (when it is text). Non-text values are sent as JSON.',
      },
      html: {
        type: 'boolean',
        description: 'Sends the message as HTML (true) or text (false); guessed when absent.',
      },
      replyTo: { type: 'string', description: 'The Reply-To address.' },
      model: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        description:
          'The optional model to be used in case subject and/or message point to a template: a value, or ' +
          'uri:property:<key> / uri:drive:<path> (read with your permissions; JSON is parsed).',
      },
      attachments: {
        type: ['string', 'array', 'object'],
        description:
          'Drive paths (comma-separated or a list) or files (#{body}); by default a file in the body.',
      },
    },
    required: ['to'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Mail a report from the drive',
        pipeline:
          'pipeline:\n  - mail.send:\n      to: ann@example.com\n      subject: Monthly report\n' +
          '      message: Please find the report attached.\n      attachments: reports/2026-11.pdf\n',
      },
    ],
  },
  async (ctx) => {
    const { config } = ctx.services.mail;
    const to = addressList(ctx.params.to, 'to');
    const cc = addressList(ctx.params.cc, 'cc');
    const bcc = addressList(ctx.params.bcc, 'bcc');
    if (to.length + cc.length + bcc.length === 0)
      throw new PipeworkError('PARAM_INVALID', 'mail.send needs at least one recipient.', {
        parameter: 'to',
      });
    const from = addressList(ctx.params.from ?? config.from, 'from');
    if (from.length !== 1)
      throw new PipeworkError('PARAM_INVALID', 'mail.send takes one sender address.', { parameter: 'from' });
    const fromName = headerText(ctx.params.fromName, 'fromName') ?? (from[0]!.name || config.fromName);
    const replyTo = addressList(ctx.params.replyTo, 'replyTo');
    const messageTemplate = await templateOf(ctx, 'message');
    const subjectTemplate = await templateOf(ctx, 'subject');
    const model = messageTemplate !== undefined || subjectTemplate !== undefined ? await modelOf(ctx) : null;
    const subject =
      headerText(
        subjectTemplate !== undefined
          ? renderTemplate(ctx, subjectTemplate, model, 'subject').trim()
          : ctx.params.subject,
        'subject',
      ) ?? '';
    const message =
      messageTemplate !== undefined ? renderTemplate(ctx, messageTemplate, model, 'message') : messageOf(ctx);
    const mail: Mail.Options = {
      from: fromName ? { name: fromName, address: from[0]!.address } : from[0]!.address,
      to: to.map(asMailbox),
      cc: cc.map(asMailbox),
      bcc: bcc.map(asMailbox),
      replyTo: replyTo.map(asMailbox),
      subject,
      ...(isHtml(message, ctx.params.html) ? { html: message } : { text: message }),
      attachments: await attachmentsOf(ctx),
    };
    return ctx.services.mail.send(mail, ctx.abortSignal(), await smtpAuthOf(ctx));
  },
);
