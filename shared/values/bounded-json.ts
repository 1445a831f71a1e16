/**
 * JSON text with a size limit. A value can be small in memory and enormous as text (a list holding one big
 * string many times), can refer to itself, or nest past the stack: each is a result here, never a crash.
 */

export type BoundedJson =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'cyclic' | 'too-deep' | 'not-json' };

const TOO_LARGE = Symbol('too-large');

/** JSON.stringify that stops as soon as the text would pass `maxChars` characters. */
export function stringifyBounded(value: unknown, maxChars: number): BoundedJson {
  let size = 0;
  try {
    const text = JSON.stringify(value, function count(key: string, item: unknown) {
      size += key.length + 4;
      if (typeof item === 'string') size += item.length + 2;
      else if (typeof item === 'number' || typeof item === 'boolean') size += 24;
      if (size > maxChars) throw TOO_LARGE;
      return item;
    });
    if (text === undefined) return { ok: false, reason: 'not-json' };
    return text.length > maxChars ? { ok: false, reason: 'too-large' } : { ok: true, text };
  } catch (error) {
    if (error === TOO_LARGE) return { ok: false, reason: 'too-large' };
    if (error instanceof RangeError) return { ok: false, reason: 'too-deep' };
    if (error instanceof TypeError && /circular/i.test(error.message)) return { ok: false, reason: 'cyclic' };
    if (error instanceof TypeError) return { ok: false, reason: 'not-json' };
    throw error;
  }
}

/** Words for a refusal, e.g. in an error message. */
export function describeJsonRefusal(
  reason: Exclude<BoundedJson, { ok: true }>['reason'],
  maxChars: number,
): string {
  switch (reason) {
    case 'too-large':
      return `is larger than ${maxChars} characters as JSON`;
    case 'cyclic':
      return 'refers to itself and cannot be written as JSON';
    case 'too-deep':
      return 'nests too deeply to be written as JSON';
    case 'not-json':
      return 'cannot be written as JSON';
  }
}
