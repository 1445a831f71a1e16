/**
 * Sends mail with nodemailer: to the SMTP server of `PIPEWORK_SMTP_URL`, or, without one, as `.eml` files
 * into the outbox folder (nodemailer builds the same message with its stream transport), which
 * `mail.outbox.list` / `mail.outbox.read` show.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { PipeworkError } from '../../shared/errors';
import type { MailConfig } from './mail-config';

export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
  /** The outbox file, when the mail went to the outbox. */
  outbox?: string;
}

export interface OutboxEntry {
  /** The file name: `<epoch millis>-<uuid>.eml`. */
  name: string;
  size: number;
  created: string;
}

/** Outbox file names: what we write, and nothing else can be asked for. */
const OUTBOX_ID = /^[0-9]{13}-[0-9a-f-]{36}\.eml$/;

function addressesOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((a) => (typeof a === 'string' ? a : String((a as { address?: string }).address ?? a)));
}

/** An SMTP login (from a username-password secret). */
export interface SmtpAuth {
  user: string;
  pass: string;
}

export class MailService {
  private smtp?: Transporter;

  constructor(readonly config: MailConfig) {}

  /** Whether an SMTP server is configured (else mail goes to the outbox). */
  get smtpConfigured(): boolean {
    return this.config.smtpUrl !== undefined;
  }

  /** Sends over SMTP (logging in with `auth` when given: a secret's user and password) or into the outbox. */
  async send(message: Mail.Options, signal?: AbortSignal, auth?: SmtpAuth): Promise<SentMail> {
    if (this.config.smtpUrl) return this.sendSmtp(message, signal, auth);
    if (auth)
      throw new PipeworkError(
        'PARAM_INVALID',
        'A secret for mail.send needs an SMTP server (PIPEWORK_SMTP_URL).',
        {
          parameter: 'secret',
        },
      );
    return this.writeOutbox(message);
  }

  private transport(auth?: SmtpAuth): Transporter {
    const wait = this.config.timeoutMillis;
    const options = {
      url: this.config.smtpUrl,
      connectionTimeout: wait,
      greetingTimeout: wait,
      socketTimeout: wait,
    };
    // A login of a secret gets its own connection: never pooled with, or reused by, another caller's mail.
    if (auth) return nodemailer.createTransport({ ...options, auth: { user: auth.user, pass: auth.pass } });
    this.smtp ??= nodemailer.createTransport(options);
    return this.smtp;
  }

  private async sendSmtp(message: Mail.Options, signal?: AbortSignal, auth?: SmtpAuth): Promise<SentMail> {
    const transport = this.transport(auth);
    try {
      signal?.throwIfAborted();
      const info = await transport.sendMail(message);
      return {
        messageId: info.messageId,
        accepted: addressesOf(info.accepted),
        rejected: addressesOf(info.rejected),
      };
    } catch (error) {
      if (error instanceof PipeworkError) throw error;
      // The URL may hold a password: name the failure, never the URL.
      const reason = (error as { code?: string; message?: string }).code ?? 'error';
      throw new PipeworkError(
        'UPSTREAM_FAILED',
        `The mail could not be sent (SMTP ${reason}).`,
        {},
        { cause: error },
      );
    } finally {
      if (auth) transport.close();
    }
  }

  /** Writes the mail as it is built (attachments streamed from disk), then renames it into the outbox. */
  private async writeOutbox(message: Mail.Options): Promise<SentMail> {
    const transport = nodemailer.createTransport({
      streamTransport: true,
      buffer: false,
      newline: 'windows',
    });
    const info = await transport.sendMail(message);
    const dir = this.config.outboxDir;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const id = `${Date.now()}-${randomUUID()}.eml`;
    const temp = join(dir, `.${id}.part`);
    try {
      await pipeline(info.message as Readable, createWriteStream(temp, { mode: 0o600, flush: true }));
      await rename(temp, join(dir, id));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const envelope = info.envelope as { to?: string[] };
    return { messageId: info.messageId, accepted: envelope.to ?? [], rejected: [], outbox: id };
  }

  /** The outbox's mails, newest first. */
  async outbox(): Promise<OutboxEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.config.outboxDir);
    } catch {
      return [];
    }
    const entries: OutboxEntry[] = [];
    for (const id of names.filter((n) => OUTBOX_ID.test(n))) {
      const stats = await stat(join(this.config.outboxDir, id));
      entries.push({ name: id, size: stats.size, created: stats.mtime.toISOString() });
    }
    return entries.sort((a, b) => (a.name < b.name ? 1 : -1));
  }

  /** One outbox mail as its raw `.eml` bytes. */
  async outboxMail(name: string): Promise<Buffer> {
    if (!OUTBOX_ID.test(name)) {
      throw new PipeworkError('PARAM_INVALID', `'${name.slice(0, 100)}' names no outbox mail.`, {
        parameter: 'name',
      });
    }
    try {
      return await readFile(join(this.config.outboxDir, name));
    } catch {
      throw new PipeworkError('NOT_FOUND', `No mail '${name}' in the outbox.`, { parameter: 'name' });
    }
  }

  close(): void {
    this.smtp?.close();
  }
}
