/** The parameters of the delivery commands, read once: recipients, expiry, flags, texts. */
import { PipeworkError } from '../../shared/errors';
import { addressList } from '../mail';

export const MAX_SUBJECT = 500;
export const MAX_MESSAGE = 1024 * 1024;

/**
 * Recipient addresses from comma-separated text or a list (what PEL gives): each checked, lower-cased,
 * without doubles. A malformed address refuses the whole list (PARAM_INVALID), before anything is stored.
 */
export function recipientsOf(value: unknown, parameter = 'recipients', max = 100): string[] {
  const items = Array.isArray(value) ? value.flat() : [value];
  const emails = new Set<string>();
  for (const item of items) {
    if (item === null || item === undefined || item === '')
      throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' holds an empty recipient.`, {
        parameter,
      });
    for (const a of addressList(typeof item === 'string' ? item : String(item), parameter))
      emails.add(a.address.toLowerCase());
  }
  if (emails.size > max)
    throw new PipeworkError('PARAM_INVALID', `A delivery takes at most ${max} recipients.`, { parameter });
  return [...emails];
}

/** `deleteAfter`: epoch millis; empty, 0 or negative for never. Undefined when absent (update: unchanged). */
export function deleteAfterOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n))
    throw new PipeworkError('PARAM_INVALID', 'deleteAfter must be a time in epoch milliseconds.', {
      parameter: 'deleteAfter',
    });
  return n <= 0 ? 0 : Math.floor(n);
}

export function booleanOf(value: unknown, parameter: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' must be true or false.`, { parameter });
}

/** A subject or message: text (other values as JSON), within its limit; undefined when absent. */
export function textOf(value: unknown, parameter: 'subject' | 'message'): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const max = parameter === 'subject' ? MAX_SUBJECT : MAX_MESSAGE;
  if (text.length > max)
    throw new PipeworkError('PARAM_INVALID', `The ${parameter} is longer than ${max} characters.`, {
      parameter,
    });
  if (parameter === 'subject' && /[\r\n]/.test(text))
    throw new PipeworkError('PARAM_INVALID', 'The subject may not hold a line break.', { parameter });
  return text;
}
