/**
 * JSON text with a size limit. A value can be small in memory and enormous as text (a list holding one big
 * string many times), can refer to itself, or nest past the stack: each is a result here, never a crash.
 */

export type BoundedJson =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'cyclic' | 'too-deep' | 'not-json' };

const TOO_LARGE = Symbol('too-large');

/** Past this depth the plain walk gives up and the replacer's path tells a cycle from depth. */
const PLAIN_DEPTH = 64;
/** What `plainSize` answers when it cannot tell: the value is not plain, nests deep, or passes the limit. */
const UNKNOWN = -1;

/**
 * The size the replacer below would count for a value of plain data (objects of `Object.prototype` or none,
 * arrays, strings, numbers, booleans, null, members left out as JSON leaves them out), walked in script
 * without a call per key from JSON.stringify; UNKNOWN for anything else or past `maxChars`.
 */
function plainSize(item: unknown, key: string, depth: number, budget: number): number {
  let size = key.length + 4;
  switch (typeof item) {
    case 'string':
      return size + item.length + 2;
    case 'number':
    case 'boolean':
      return size + 24;
    case 'undefined':
    case 'function':
    case 'symbol':
      return size;
    case 'bigint':
      return UNKNOWN;
  }
  if (item === null) return size;
  if (depth > PLAIN_DEPTH) return UNKNOWN;
  if (Array.isArray(item)) {
    if (Object.getPrototypeOf(item) !== Array.prototype) return UNKNOWN;
    for (let i = 0; i < item.length; i++) {
      const member = plainSize(item[i], String(i), depth + 1, budget - size);
      if (member === UNKNOWN) return UNKNOWN;
      size += member;
      if (size > budget) return UNKNOWN;
    }
    return size;
  }
  const prototype = Object.getPrototypeOf(item) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return UNKNOWN;
  if ('toJSON' in (item as object)) return UNKNOWN;
  for (const name in item as object) {
    if (!Object.hasOwn(item as object, name)) continue;
    const member = plainSize((item as Record<string, unknown>)[name], name, depth + 1, budget - size);
    if (member === UNKNOWN) return UNKNOWN;
    size += member;
    if (size > budget) return UNKNOWN;
  }
  return size;
}

/** JSON.stringify that stops as soon as the text would pass `maxChars` characters. */
export function stringifyBounded(value: unknown, maxChars: number): BoundedJson {
  // Plain data within the limit (what runs mostly hold): counted in one walk, then written natively.
  const size = plainSize(value, '', 0, maxChars);
  if (size !== UNKNOWN && size <= maxChars) return withinLimit(JSON.stringify(value), maxChars);
  let counted = 0;
  try {
    const text = JSON.stringify(value, function count(key: string, item: unknown) {
      counted += key.length + 4;
      if (typeof item === 'string') counted += item.length + 2;
      else if (typeof item === 'number' || typeof item === 'boolean') counted += 24;
      if (counted > maxChars) throw TOO_LARGE;
      return item;
    });
    return withinLimit(text, maxChars);
  } catch (error) {
    if (error === TOO_LARGE) return { ok: false, reason: 'too-large' };
    if (error instanceof RangeError) return { ok: false, reason: 'too-deep' };
    if (error instanceof TypeError && /circular/i.test(error.message)) return { ok: false, reason: 'cyclic' };
    if (error instanceof TypeError) return { ok: false, reason: 'not-json' };
    throw error;
  }
}

function withinLimit(text: string | undefined, maxChars: number): BoundedJson {
  if (text === undefined) return { ok: false, reason: 'not-json' };
  return text.length > maxChars ? { ok: false, reason: 'too-large' } : { ok: true, text };
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
