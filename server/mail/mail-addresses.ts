/**
 * Header values of a mail as callers give them: address lists (text with commas, or lists) checked one by one,
 * and the rule that no header value holds a line break (header injection).
 */
import addressparser from 'nodemailer/lib/addressparser';
import { PipeworkError } from '../../shared/errors';

export interface MailAddress {
  name: string;
  address: string;
}

/** A plain address: local part and domain, no spaces, brackets, quotes or control characters. */
const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$/;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Refuses a header value with CR, LF or another control character. */
export function headerText(value: unknown, parameter: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' must be text.`, { parameter });
  if (CONTROL.test(value)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Parameter '${parameter}' contains a line break or control character, which a mail header may not hold.`,
      { parameter },
    );
  }
  return value;
}

/** The addresses of `to`, `cc`, `bcc`, `replyTo` or `from`: comma-separated text or a list of them. */
export function addressList(value: unknown, parameter: string): MailAddress[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  const out: MailAddress[] = [];
  for (const item of items) {
    const text = headerText(typeof item === 'string' ? item : String(item), parameter);
    if (text === undefined) continue;
    for (const parsed of addressparser(text, { flatten: true })) {
      const strayName = parsed.name !== '' && !text.includes('<'); // 'a b@c.com' is no 'Name <address>'
      if (!ADDRESS.test(parsed.address) || strayName) {
        throw new PipeworkError('PARAM_INVALID', `'${text.slice(0, 200)}' is no valid mail address.`, {
          parameter,
        });
      }
      out.push({ name: parsed.name, address: parsed.address });
    }
    // addressparser drops what it cannot read: a list item with no address in it is an error too.
    if (!/@/.test(text)) {
      throw new PipeworkError('PARAM_INVALID', `'${text.slice(0, 200)}' is no valid mail address.`, {
        parameter,
      });
    }
  }
  return out;
}
