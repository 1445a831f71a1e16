/**
 * The mails of a delivery: the link to each recipient (with the message, unless level 4 keeps even that
 * encrypted), the password in a mail of its own from level 2, and the note to the sender on a first download.
 */
import type Mail from 'nodemailer/lib/mailer';
import type { Delivery } from './delivery-records';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** HTML when the message starts with a tag (as mail.send decides). */
const looksHtml = (message: string): boolean => /^\s*<[a-zA-Z!]/.test(message);

function expiryLine(delivery: Delivery): string {
  return delivery.deleteAfter > 0 ? `Available until ${new Date(delivery.deleteAfter).toISOString()}.` : '';
}

export function linkMail(delivery: Delivery, to: string, link: string, message: string | null): Mail.Options {
  const lines = [
    `${delivery.senderName} sent you a secure delivery with ${delivery.attachments.length} file(s).`,
    delivery.privacyLevel >= 2 ? 'You will receive the password in a separate mail.' : '',
    expiryLine(delivery),
  ].filter((l) => l !== '');
  const base = { to, subject: delivery.subject };
  if (message !== null && looksHtml(message)) {
    return {
      ...base,
      html:
        `${message}\n<hr>\n<p>${lines.map(escapeHtml).join('<br>')}</p>\n` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    };
  }
  const text = [message ?? 'The message of this delivery is shown on its download page.', '', ...lines, link]
    .join('\n')
    .trim();
  return { ...base, text };
}

export function passwordMail(delivery: Delivery, to: string, password: string): Mail.Options {
  return {
    to,
    subject: `Password: ${delivery.subject}`,
    text:
      `The password for the secure delivery "${delivery.subject}" from ${delivery.senderName}:\n\n${password}\n\n` +
      'The link came in a separate mail.',
  };
}

export function downloadedMail(delivery: Delivery, to: string, recipient: string): Mail.Options {
  return {
    to,
    subject: `Downloaded: ${delivery.subject}`,
    text: `${recipient} downloaded your secure delivery "${delivery.subject}" (${delivery.uuid}).`,
  };
}
