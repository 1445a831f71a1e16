/**
 * For tests: finds a delivery's mails in the outbox (the link, and from level 2 the password) and downloads
 * its files the way a recipient's browser does (the page, the password form, the file).
 */
import { simpleParser } from 'mailparser';
import type { TestServer } from './test-server';

export interface DeliveryMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Every mail of the outbox, parsed, oldest first. */
export async function outboxMails(server: TestServer): Promise<DeliveryMail[]> {
  const entries = await server.services.mail.outbox();
  const mails: DeliveryMail[] = [];
  for (const entry of [...entries].reverse()) {
    const mail = await simpleParser(await server.services.mail.outboxMail(entry.name));
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    mails.push({
      to: to?.value[0]?.address ?? '',
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : '',
    });
  }
  return mails;
}

export interface ReceivedDelivery {
  linkMail: DeliveryMail;
  /** The page's path on the test server (`/delivery/<token>`). */
  path: string;
  password?: string;
}

/** The link (and password) a recipient got for the delivery with this subject; undefined if not (yet) there. */
export async function receivedDelivery(
  server: TestServer,
  to: string,
  subject: string,
): Promise<ReceivedDelivery | undefined> {
  const mails = (await outboxMails(server)).filter((m) => m.to === to);
  const linkMail = mails.filter((m) => m.subject === subject).at(-1);
  if (!linkMail) return undefined;
  const link = /https?:\/\/[^\s"<>]+\/delivery\/[A-Za-z0-9_-]{43}/.exec(linkMail.text || linkMail.html)?.[0];
  if (!link) return undefined;
  const passwordMail = mails.filter((m) => m.subject === `Password: ${subject}`).at(-1);
  const password = passwordMail ? /\n\n(\S+)\n\n/.exec(passwordMail.text)?.[1] : undefined;
  return { linkMail, path: new URL(link).pathname, password };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Opens the page (posting the password when there is one) and downloads the file at `position`. */
export async function downloadFile(
  server: TestServer,
  received: ReceivedDelivery,
  position = 0,
): Promise<{ page: string; status: number; bytes: Buffer; headers: Headers }> {
  const pageResponse = received.password
    ? await fetch(server.url + received.path, form({ password: received.password }))
    : await fetch(server.url + received.path);
  const page = await pageResponse.text();
  const file = received.password
    ? await fetch(`${server.url}${received.path}/${position}`, form({ password: received.password }))
    : await fetch(`${server.url}${received.path}/${position}`);
  return { page, status: file.status, bytes: Buffer.from(await file.arrayBuffer()), headers: file.headers };
}
