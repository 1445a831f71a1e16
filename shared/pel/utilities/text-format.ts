/** Formatting helpers of `@text`: pattern filling, HTML and CSV escaping, per-item PEL formatting. */
import { utilityError } from '../errors';
import { templateText } from '../values';
import { compileUtilityExpression } from './expression-hook';
import { capString } from './support';

/** Fills {0}, {1}, ... with `args` (a placeholder without an argument stays as it is). */
export function fillPattern(fn: string, pattern: string, args: readonly unknown[]): string {
  let length = pattern.length;
  return pattern.replace(/\{(\d+)\}/g, (m, i: string) => {
    const piece = Number(i) < args.length ? templateText(args[Number(i)]) : m;
    capString(fn, (length += piece.length));
    return piece;
  });
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML-safe text; line breaks become `<br/>`. */
export function toHtml(s: string): string {
  const escaped = s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  capString('toHtml', escaped.length * 2);
  return escaped.replace(/\r?\n/g, '<br/>');
}

/** One CSV field (RFC 4180): quoted, with doubled quotes, when it holds a separator, quote or line break. */
export function escapeCsv(s: string): string {
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Each item formatted by a PEL expression, as a projection does: inside it `#this` is the item and a bare
 * name is a field of it (`'name'`, `'#this.toUpperCase()'`). The expression is checked alone first, so it
 * cannot reach outside its brackets.
 */
export function formatEach(fn: string, items: unknown[], pel: string): unknown[] {
  try {
    compileUtilityExpression(pel);
  } catch (e) {
    throw utilityError(`${fn}: the expression '${pel}' is not valid: ${(e as Error).message}`);
  }
  const projection = compileUtilityExpression(`vars.items.![(${pel})]`);
  return projection.evaluate({ body: null, vars: { items }, headers: {} }) as unknown[];
}
