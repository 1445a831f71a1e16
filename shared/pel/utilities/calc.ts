/** `@calc`: arithmetic over numbers and lists of numbers (sum, avg, min, max, rounding half-up). */
import { utilityError } from '../errors';
import { type UtilitySpec, int, num, optionalInt } from './support';

/** The numbers of a call: one list argument, or the arguments themselves; nulls are skipped. */
function numbersOf(fn: string, a: unknown[]): number[] {
  const items = a.length === 1 && Array.isArray(a[0]) ? a[0] : a;
  const out: number[] = [];
  items.forEach((v, i) => {
    if (v === null || v === undefined) return;
    out.push(num(fn, items, i));
  });
  return out;
}

function finite(fn: string, n: number): number {
  if (!Number.isFinite(n)) throw utilityError(`${fn}: the result is not a finite number`);
  return n;
}

/** Rounds half away from zero at a number of decimal places (Java's HALF_UP), avoiding 1.005 surprises. */
export function roundHalfUp(n: number, digits: number): number {
  if (digits < 0 || digits > 15) throw utilityError('round: digits must be between 0 and 15');
  // From 2^52 on every double is a whole number: nothing to round (and shifting could overflow).
  if (!(Math.abs(n) < 2 ** 52)) return n;
  const sign = n < 0 ? -1 : 1;
  // Shift the decimal text, not the double; tiny numbers print with an exponent ('1.5e-7').
  const [mantissa, exponent = '0'] = String(Math.abs(n)).split('e');
  const shifted = Number(`${mantissa}e${Number(exponent) + digits}`);
  return (sign * Math.round(shifted)) / 10 ** digits || 0;
}

/** A number as text with exactly `digits` decimals, in plain digits even past 1e21 (as Java's BigDecimal). */
function fixed(n: number, digits: number): string {
  if (Math.abs(n) < 1e21) return n.toFixed(digits);
  return BigInt(n).toString() + (digits > 0 ? `.${'0'.repeat(digits)}` : '');
}

export const calcUtility: UtilitySpec = {
  name: 'calc',
  doc: 'Arithmetic; functions taking numbers accept a list or several arguments.',
  functions: {
    sum: {
      signature: 'sum(...numbers)',
      doc: 'The sum (0 for none).',
      fn: (...a) =>
        finite(
          'sum',
          numbersOf('sum', a).reduce((s, n) => s + n, 0),
        ),
    },
    avg: {
      signature: 'avg(...numbers)',
      doc: 'The mean (null for none).',
      fn: (...a) => {
        const ns = numbersOf('avg', a);
        return ns.length === 0 ? null : finite('avg', ns.reduce((s, n) => s + n, 0) / ns.length);
      },
    },
    min: {
      signature: 'min(...numbers)',
      doc: 'The smallest (null for none).',
      fn: (...a) => {
        const ns = numbersOf('min', a);
        return ns.length === 0 ? null : ns.reduce((m, n) => (n < m ? n : m));
      },
    },
    max: {
      signature: 'max(...numbers)',
      doc: 'The largest (null for none).',
      fn: (...a) => {
        const ns = numbersOf('max', a);
        return ns.length === 0 ? null : ns.reduce((m, n) => (n > m ? n : m));
      },
    },
    abs: { signature: 'abs(number)', doc: 'The absolute value.', fn: (...a) => Math.abs(num('abs', a, 0)) },
    round: {
      signature: 'round(number, digits?)',
      doc: 'Rounded half-up to digits decimal places (default 0): @calc.round(2.345, 2) is 2.35.',
      fn: (...a) => roundHalfUp(num('round', a, 0), optionalInt('round', a, 1, 0)),
    },
    floor: { signature: 'floor(number)', doc: 'Rounded down.', fn: (...a) => Math.floor(num('floor', a, 0)) },
    ceil: { signature: 'ceil(number)', doc: 'Rounded up.', fn: (...a) => Math.ceil(num('ceil', a, 0)) },
    pow: {
      signature: 'pow(base, exponent)',
      doc: 'base to the power of exponent.',
      fn: (...a) => finite('pow', num('pow', a, 0) ** num('pow', a, 1)),
    },
    sqrt: {
      signature: 'sqrt(number)',
      doc: 'The square root.',
      fn: (...a) => {
        const n = num('sqrt', a, 0);
        if (n < 0) throw utilityError('sqrt: the number must not be negative');
        return Math.sqrt(n);
      },
    },
    percent: {
      signature: 'percent(part, total, digits?)',
      doc: 'part of total in percent, rounded half-up (default 2 digits).',
      fn: (...a) => {
        const total = num('percent', a, 1);
        if (total === 0) throw utilityError('percent: the total must not be 0');
        return roundHalfUp((num('percent', a, 0) * 100) / total, optionalInt('percent', a, 2, 2));
      },
    },
    toFixed: {
      signature: 'toFixed(number, digits)',
      doc: "Text with exactly digits decimal places (half-up): @calc.toFixed(2.5, 2) is '2.50'.",
      fn: (...a) => {
        const digits = int('toFixed', a, 1);
        return fixed(roundHalfUp(num('toFixed', a, 0), digits), digits);
      },
    },
    clamp: {
      signature: 'clamp(number, min, max)',
      doc: 'The number kept between min and max.',
      fn: (...a) => Math.min(Math.max(num('clamp', a, 0), num('clamp', a, 1)), num('clamp', a, 2)),
    },
    random: {
      signature: 'random()',
      doc: 'A random number from 0 (inclusive) to 1 (exclusive).',
      fn: () => Math.random(),
    },
    mod: {
      signature: 'mod(number, divisor)',
      doc: 'The remainder with the sign of the divisor (a mathematical modulo).',
      fn: (...a) => {
        const d = num('mod', a, 1);
        if (d === 0) throw utilityError('mod: division by zero');
        const n = num('mod', a, 0);
        return ((n % d) + d) % d;
      },
    },
  },
};
