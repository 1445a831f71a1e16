/** Decimal numbers written with a chosen decimal symbol and Java DecimalFormat patterns ('#,##0.00'). */
import { utilityError } from '../errors';
import { roundWithMode } from './calc';

function symbolOf(fn: string, decimalSymbol: string): string {
  if (decimalSymbol.length !== 1 || /[0-9+-]/.test(decimalSymbol))
    throw utilityError(`${fn}: the decimal symbol must be one character such as '.' or ','`);
  return decimalSymbol;
}

/** The grouping symbol that goes with a decimal symbol: ',' with '.', and '.' otherwise. */
function groupingFor(decimalSymbol: string): string {
  return decimalSymbol === '.' ? ',' : '.';
}

/** `'1.234,56'` with ',' as decimal symbol is 1234.56; grouping symbols and spaces are left out. */
export function parseDecimal(fn: string, value: string, decimalSymbol: string): number {
  const symbol = symbolOf(fn, decimalSymbol);
  const grouping = groupingFor(symbol);
  let t = value.trim().replace(/[\s\u00a0'’]/g, '');
  t = t.split(grouping).join('');
  if (symbol !== '.') t = t.split(symbol).join('.');
  const n = Number(t);
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) || !Number.isFinite(n))
    throw utilityError(`${fn}: '${value}' is not a decimal number`);
  return n;
}

/** The decimal places a DecimalFormat pattern asks for: at least (0s) and at most (0s and #s). */
function fractionDigits(pattern: string): { min: number; max: number; grouping: boolean } {
  const positive = pattern.split(';')[0]!;
  const dot = positive.indexOf('.');
  const fraction = dot < 0 ? '' : positive.slice(dot + 1).replace(/[^0#]/g, '');
  return {
    min: (fraction.match(/0/g) ?? []).length,
    max: fraction.length,
    grouping: (dot < 0 ? positive : positive.slice(0, dot)).includes(','),
  };
}

/** A number written by a DecimalFormat pattern (half-even, as Java) with the given decimal symbol. */
export function formatDecimal(fn: string, n: number, pattern: string | null, decimalSymbol: string): string {
  const symbol = symbolOf(fn, decimalSymbol);
  if (pattern !== null && !/^[#0,.;\-\s]*$/.test(pattern))
    throw utilityError(`${fn}: the pattern '${pattern}' may hold only 0, #, ',' and '.'`);
  const { min, max, grouping } =
    pattern === null ? { min: 0, max: 15, grouping: false } : fractionDigits(pattern);
  const rounded = roundWithMode(n, max, 'HALF_EVEN');
  let [whole = '0', fraction = ''] = Math.abs(rounded).toFixed(Math.min(max, 20)).split('.');
  fraction = fraction.replace(/0+$/, '').padEnd(min, '0');
  if (grouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, groupingFor(symbol));
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${whole}${fraction === '' ? '' : symbol + fraction}`;
}
