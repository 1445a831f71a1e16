/** The value built-ins of transform.ftl (`?upper_case`, `?size`, `?join(", ")`, ...) on a present value. */
import { PipeworkError } from '../../../../shared/errors';

type Hash = Record<string, unknown>;

/** A map (not a list). */
export function isHash(v: unknown): v is Hash {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A template error: PARAM_INVALID on the template parameter. */
export function ftlError(message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', `transform.ftl: ${message}`, { parameter: 'template' });
}

/** What applyBuiltIn gives for a built-in that exists but does not apply to the value's type. */
export const NOT_APPLICABLE = Symbol('not applicable');

/** Applies built-in `name` to `v`; `text` and `num` are the evaluator's conversions (they fail clearly). */
export function applyBuiltIn(
  name: string,
  v: unknown,
  args: unknown[],
  text: (x: unknown) => string,
  num: (x: unknown, what: string) => number,
): unknown {
  const s = () => (typeof v === 'string' ? v : text(v));
  switch (name) {
    case 'upper_case':
      return s().toUpperCase();
    case 'lower_case':
      return s().toLowerCase();
    case 'cap_first':
      return s().charAt(0).toUpperCase() + s().slice(1);
    case 'uncap_first':
      return s().charAt(0).toLowerCase() + s().slice(1);
    case 'capitalize':
      return s().replace(/\b\w/g, (c) => c.toUpperCase());
    case 'trim':
      return s().trim();
    case 'length':
      return s().length;
    case 'html':
    case 'xml':
      return s().replace(
        /[&<>"']/g,
        (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
      );
    case 'c':
      return typeof v === 'number' ? String(v) : s();
    case 'string':
      if (typeof v === 'boolean' && args.length === 2) return String(v ? args[0] : args[1]);
      return typeof v === 'boolean' ? String(v) : s();
    case 'number': {
      const n = typeof v === 'number' ? v : Number(s());
      if (!Number.isFinite(n)) throw ftlError(`'${s()}' is not a number`);
      return n;
    }
    case 'round':
      return Math.round(num(v, '?round'));
    case 'floor':
      return Math.floor(num(v, '?floor'));
    case 'ceiling':
      return Math.ceil(num(v, '?ceiling'));
    case 'size':
      if (Array.isArray(v)) return v.length;
      if (isHash(v)) return Object.keys(v).length;
      break;
    case 'keys':
      if (isHash(v)) return Object.keys(v);
      break;
    case 'values':
      if (isHash(v)) return Object.values(v);
      break;
    case 'first':
      if (Array.isArray(v)) return v[0];
      break;
    case 'last':
      if (Array.isArray(v)) return v[v.length - 1];
      break;
    case 'reverse':
      if (Array.isArray(v)) return [...v].reverse();
      break;
    case 'join':
      if (Array.isArray(v)) return v.map((x) => text(x)).join(args.length ? String(args[0]) : ', ');
      break;
    case 'contains':
      return s().includes(String(args[0]));
    case 'starts_with':
      return s().startsWith(String(args[0]));
    case 'ends_with':
      return s().endsWith(String(args[0]));
    case 'replace':
      return s()
        .split(String(args[0]))
        .join(String(args[1] ?? ''));
    default:
      throw ftlError(`the built-in ?${name} is not supported`);
  }
  return NOT_APPLICABLE;
}
