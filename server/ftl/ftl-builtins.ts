/** The value built-ins of FreeMarker templates (`?upper_case`, `?size`, `?join(", ")`, ...) on a present value. */
import { PipeworkError } from '../../shared/errors';

type Hash = Record<string, unknown>;

/** A map (not a list). */
export function isHash(v: unknown): v is Hash {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A template error: PARAM_INVALID on the template (renderFtl names the command and the parameter). */
export function ftlError(message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter: 'template' });
}

/** `?left_pad` / `?right_pad` widths at most. */
const MAX_PAD = 100_000;

/** `?string("0.00")`, `?string("#,##0.##")`: decimals from the pattern's fraction, grouping on a comma. */
export function formatNumber(n: number, pattern: string): string {
  const m = /^[#,0]*(?:\.([0#]*))?$/.exec(pattern);
  if (!m)
    throw ftlError(`the number format '${pattern}' is not supported (use a form like "0.00" or "#,##0.##")`);
  const fraction = m[1] ?? '';
  return new Intl.NumberFormat('en-US', {
    useGrouping: pattern.includes(','),
    minimumFractionDigits: (fraction.match(/0/g) ?? []).length,
    maximumFractionDigits: fraction.length,
  }).format(n);
}

/** `?sort`: numbers, texts or booleans of one kind, ascending. */
function sortedValues(v: unknown[]): unknown[] {
  const kinds = new Set(v.map((x) => typeof x));
  if (kinds.size > 1 || !['number', 'string', 'boolean'].includes([...kinds][0] ?? 'number'))
    throw ftlError('?sort sorts a list of numbers, of texts or of booleans');
  return [...v].sort((a, b) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0));
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
  maxChars = Number.MAX_SAFE_INTEGER,
): unknown {
  /** A text about to be made longer than maxChars: a RangeError, which the evaluator answers as a budget. */
  const fits = (length: number) => {
    if (length > maxChars) throw new RangeError('too long');
  };
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
      if (typeof v === 'number' && args.length === 1) return formatNumber(v, String(args[0]));
      return typeof v === 'boolean' ? String(v) : s();
    case 'then':
      if (typeof v !== 'boolean') break;
      if (args.length !== 2) throw ftlError('?then takes two values: x?then(whenTrue, whenFalse)');
      return v ? args[0] : args[1];
    case 'abs':
      return Math.abs(num(v, '?abs'));
    case 'index_of':
      return s().indexOf(String(args[0]));
    case 'split':
      return s().split(String(args[0]));
    case 'left_pad':
    case 'right_pad': {
      const width = num(args[0], `?${name}`);
      if (width > Math.min(MAX_PAD, maxChars))
        throw ftlError(`?${name} pads to at most ${MAX_PAD} characters`);
      const fill = args.length > 1 ? String(args[1]) : ' ';
      return name === 'left_pad' ? s().padStart(width, fill) : s().padEnd(width, fill);
    }
    case 'no_esc':
      return s();
    case 'is_string':
      return typeof v === 'string';
    case 'is_number':
      return typeof v === 'number';
    case 'is_boolean':
      return typeof v === 'boolean';
    case 'is_sequence':
      return Array.isArray(v);
    case 'is_hash':
      return isHash(v);
    case 'seq_contains':
      if (Array.isArray(v)) return v.some((x) => x === args[0]);
      break;
    case 'seq_index_of':
      if (Array.isArray(v)) return v.indexOf(args[0]);
      break;
    case 'sort':
      if (Array.isArray(v)) return sortedValues(v);
      break;
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
      if (Array.isArray(v)) {
        const parts = v.map((x) => text(x));
        const separator = args.length ? String(args[0]) : ', ';
        fits(parts.reduce((n, p) => n + p.length + separator.length, 0));
        return parts.join(separator);
      }
      break;
    case 'contains':
      return s().includes(String(args[0]));
    case 'starts_with':
      return s().startsWith(String(args[0]));
    case 'ends_with':
      return s().endsWith(String(args[0]));
    case 'replace': {
      const parts = s().split(String(args[0]));
      const by = String(args[1] ?? '');
      fits(s().length + (parts.length - 1) * (by.length - String(args[0]).length));
      return parts.join(by);
    }
    default:
      throw ftlError(`the built-in ?${name} is not supported`);
  }
  return NOT_APPLICABLE;
}
