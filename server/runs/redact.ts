/**
 * What never goes into the run history: values of parameters, vars and headers named like secrets, and
 * anything a registered redactor recognises (the secrets store adds one for its values).
 */

import type { SecretMask } from './secret-mask';

/** Names whose values are replaced: passwords, secrets, tokens, credentials, API keys, Authorization. */
const SECRET_NAME =
  /pass(word|wd)?|pwd|secret|token|credential|authori[sz]ation|api[-_]?key|private[-_]?key|cookie/i;

export const REDACTED = '***';

/** A further rule: given a string value, returns it with what must not be kept replaced. */
export type StringRedactor = (text: string) => string;

const stringRedactors: StringRedactor[] = [];

/** Adds a rule for string values (e.g. the secrets store masking its values wherever they appear). */
export function addStringRedactor(redactor: StringRedactor): () => void {
  stringRedactors.push(redactor);
  return () => {
    const i = stringRedactors.indexOf(redactor);
    if (i >= 0) stringRedactors.splice(i, 1);
  };
}

function redactString(text: string, mask: SecretMask | undefined): string {
  // The secret values the run used (registered by the commands that resolved them), and the values the
  // run decrypted, which its caller sees but the history must not keep.
  let out = mask ? mask.recordText(text) : text;
  for (const redactor of stringRedactors) out = redactor(out);
  return out;
}

/** `name: value` / `name=value` with a secret-like name, in pipeline text (YAML, JSON, URI). */
const SECRET_IN_TEXT =
  /((?:pass(?:word|wd)?|pwd|secret|token|credential|authori[sz]ation|api[-_]?key|private[-_]?key|cookie)[\w-]*["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,}&]+)/gi;

/** Pipeline text with the values written after secret-like names replaced (and the string rules applied). */
export function redactText(text: string, mask?: SecretMask): string {
  return redactString(text.replace(SECRET_IN_TEXT, `$1${REDACTED}`), mask);
}

/** Whether a parameter, var or header of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * A copy of a JSON-like value (as the trace records it) with secret-named members replaced by `***`.
 * Values are already bounded by the trace, so the walk is bounded too. `mask`: the run's secret values.
 */
export function redact(value: unknown, mask?: SecretMask, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value, mask);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, mask, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSecretName(key) && item !== null && item !== undefined ? REDACTED : redact(item, mask, depth + 1);
  }
  return out;
}

/** Thrown inside `redactedJsonCopy` when the value is not plain, bounded JSON. */
const NOT_PLAIN = Symbol('not plain JSON');

/**
 * In one pass, a redacted copy of a value that is plain JSON (objects, arrays, strings, finite numbers,
 * booleans, null) of at most about `maxChars` characters as JSON; undefined when it is anything else, so the
 * caller takes its slower general path. Counts size as `stringifyBounded` does.
 */
export function redactedJsonCopy(value: unknown, maxChars: number, mask?: SecretMask): unknown {
  let size = 0;
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') {
      size += item.length + 2;
      if (size > maxChars) throw NOT_PLAIN;
      return redactString(item, mask);
    }
    if (item === null || typeof item === 'boolean') {
      size += 5;
      return item;
    }
    if (typeof item === 'number') {
      size += 24;
      if (!Number.isFinite(item)) throw NOT_PLAIN;
      return item;
    }
    if (typeof item !== 'object' || depth > 64) throw NOT_PLAIN;
    if (Array.isArray(item)) {
      const out: unknown[] = new Array<unknown>(item.length);
      for (let i = 0; i < item.length; i++) out[i] = copy(item[i], depth + 1);
      return out;
    }
    if (Object.getPrototypeOf(item) !== Object.prototype) throw NOT_PLAIN;
    const out: Record<string, unknown> = {};
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      const member = (item as Record<string, unknown>)[key];
      if (member === undefined) throw NOT_PLAIN;
      size += key.length + 4;
      out[key] = isSecretName(key) && member !== null ? REDACTED : copy(member, depth + 1);
    }
    return out;
  };
  try {
    return copy(value, 0);
  } catch (error) {
    if (error === NOT_PLAIN) return undefined;
    throw error;
  }
}
