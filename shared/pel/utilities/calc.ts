/** `@calc`: arithmetic over numbers and lists of numbers (sum, avg, min, max, rounding half-up). */
import { utilityError } from '../errors';
import { type UtilitySpec, int, itemsOf, num, optionalInt, optionalText } from './support';

/** The numbers of a call: one list (or comma-separated text), or the arguments themselves; nulls are skipped. */
function numbersOf(fn: string, a: unknown[]): number[] {
  const items = itemsOf(fn, a);
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

/** Java's RoundingMode names. */
const ROUNDING_MODES = ['HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UP', 'DOWN', 'CEILING', 'FLOOR'] as const;
type RoundingMode = (typeof ROUNDING_MODES)[number];

function roundingMode(fn: string, a: unknown[], i: number): RoundingMode {
  const mode = optionalText(fn, a, i, 'HALF_UP').toUpperCase() as RoundingMode;
  if (!ROUNDING_MODES.includes(mode))
    throw utilityError(`${fn}: unknown rounding mode '${mode}' (${ROUNDING_MODES.join(', ')})`);
  return mode;
}

/** A whole number from a shifted one, by mode (the shift is exact decimal text, so .5 is exact). */
function roundShifted(x: number, mode: RoundingMode): number {
  const down = Math.trunc(x);
  const fraction = Math.abs(x - down);
  if (fraction === 0) return x;
  const away = down + Math.sign(x);
  switch (mode) {
    case 'UP':
      return away;
    case 'DOWN':
      return down;
    case 'CEILING':
      return Math.ceil(x);
    case 'FLOOR':
      return Math.floor(x);
    case 'HALF_UP':
      return fraction >= 0.5 ? away : down;
    case 'HALF_DOWN':
      return fraction > 0.5 ? away : down;
    case 'HALF_EVEN':
      return fraction > 0.5 || (fraction === 0.5 && down % 2 !== 0) ? away : down;
  }
}

/** Rounds at a scale (decimal places; negative rounds to tens, hundreds ...) by a Java rounding mode. */
export function roundWithMode(n: number, scale: number, mode: RoundingMode): number {
  if (scale < -15 || scale > 15) throw utilityError('round: scale must be between -15 and 15');
  if (!(Math.abs(n) < 2 ** 52)) return n;
  const [mantissa, exponent = '0'] = String(n).split('e');
  const shifted = Number(`${mantissa}e${Number(exponent) + scale}`);
  const rounded = roundShifted(shifted, mode);
  const [m2, e2 = '0'] = String(rounded).split('e');
  return Number(`${m2}e${Number(e2) - scale}`) || 0;
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
      signature: 'sum(list)',
      doc: "The sum (0 for none) of a list, a comma-separated text or several arguments: @calc.sum('10, 10') is 20.",
      fn: (...a) =>
        finite(
          'sum',
          numbersOf('sum', a).reduce((s, n) => s + n, 0),
        ),
    },
    avg: {
      signature: 'avg(list)',
      doc: 'The mean (null for none) of a list, a comma-separated text or several arguments.',
      fn: (...a) => {
        const ns = numbersOf('avg', a);
        return ns.length === 0 ? null : finite('avg', ns.reduce((s, n) => s + n, 0) / ns.length);
      },
    },
    min: {
      signature: 'min(list)',
      doc: 'The smallest (null for none).',
      fn: (...a) => {
        const ns = numbersOf('min', a);
        return ns.length === 0 ? null : ns.reduce((m, n) => (n < m ? n : m));
      },
    },
    max: {
      signature: 'max(list)',
      doc: 'The largest (null for none).',
      fn: (...a) => {
        const ns = numbersOf('max', a);
        return ns.length === 0 ? null : ns.reduce((m, n) => (n > m ? n : m));
      },
    },
    abs: { signature: 'abs(number)', doc: 'The absolute value.', fn: (...a) => Math.abs(num('abs', a, 0)) },
    round: {
      signature: 'round(value, scale, mode)',
      doc: "Rounded to scale decimal places (default 0) by a Java rounding mode (HALF_UP by default; HALF_DOWN, HALF_EVEN, UP, DOWN, CEILING, FLOOR): @calc.round(2.345, 2) is 2.35, @calc.round(2.5, 0, 'HALF_EVEN') is 2.",
      fn: (...a) =>
        roundWithMode(num('round', a, 0), optionalInt('round', a, 1, 0), roundingMode('round', a, 2)),
    },
    roundUp: {
      signature: 'roundUp(value, scale)',
      doc: 'Rounded away from zero at scale decimal places (default 0): @calc.roundUp(2.341, 2) is 2.35.',
      fn: (...a) => roundWithMode(num('roundUp', a, 0), optionalInt('roundUp', a, 1, 0), 'UP'),
    },
    roundDown: {
      signature: 'roundDown(value, scale)',
      doc: 'Rounded towards zero at scale decimal places (default 0): @calc.roundDown(2.349, 2) is 2.34.',
      fn: (...a) => roundWithMode(num('roundDown', a, 0), optionalInt('roundDown', a, 1, 0), 'DOWN'),
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
