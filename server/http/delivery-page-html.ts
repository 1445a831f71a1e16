/**
 * The download page of a secure delivery: plain HTML, no script and no style (it works under the strictest
 * Content-Security-Policy), every value escaped. Attachments are links (level 1) or forms that carry the
 * password (level 2 and up); the page never lists anything but the one delivery of its token.
 */
import type { Delivery } from '../delivery';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex, nofollow"><title>${escape(title)}</title></head>\n` +
    `<body><main>\n${body}\n</main></body></html>\n`
  );
}

export function notFoundPage(): string {
  return page('Not found', '<h1>Not found</h1><p>This link does not lead to a delivery (any longer).</p>');
}

export function tooManyPage(): string {
  return page('Too many requests', '<h1>Too many requests</h1><p>Please try again later.</p>');
}

function header(delivery: Delivery, message: string | null): string {
  const text = message === null ? '' : `<pre>${escape(message)}</pre>`;
  const until =
    delivery.deleteAfter > 0
      ? `<p>Available until ${escape(new Date(delivery.deleteAfter).toISOString())}.</p>`
      : '';
  return `<h1>${escape(delivery.subject)}</h1><p>From ${escape(delivery.senderName)}</p>${text}${until}`;
}

const size = (bytes: number): string => `${bytes} bytes`;

/** Level 1, or levels 2 and up once the password was given (`password` then travels in each form). */
export function deliveryPage(
  delivery: Delivery,
  path: string,
  message: string | null,
  password: string | null,
): string {
  const items = delivery.attachments.map((a) => {
    const label = `${escape(a.name)} (${escape(a.mimeType)}, ${size(a.length)})`;
    if (password === null)
      return `<li><a href="${escape(`${path}/${a.position}`)}" download>${label}</a></li>`;
    return (
      `<li><form method="post" action="${escape(`${path}/${a.position}`)}">` +
      `<input type="hidden" name="password" value="${escape(password)}">` +
      `<button type="submit">${label}</button></form></li>`
    );
  });
  const list = items.length > 0 ? `<h2>Files</h2><ul>${items.join('')}</ul>` : '<p>No files.</p>';
  return page(delivery.subject, header(delivery, message) + list);
}

/** Levels 2 and up: the password form. */
export function passwordPage(delivery: Delivery, path: string, wrong: boolean): string {
  const hint = wrong ? '<p role="alert">The password is not right.</p>' : '';
  return page(
    delivery.subject,
    `<h1>${escape(delivery.subject)}</h1><p>From ${escape(delivery.senderName)}</p>${hint}` +
      `<form method="post" action="${escape(path)}"><label>Password (sent to you in a separate mail) ` +
      '<input type="password" name="password" autocomplete="off" required></label> ' +
      '<button type="submit">Open</button></form>',
  );
}
