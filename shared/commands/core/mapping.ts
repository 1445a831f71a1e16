/** Mapping rules of `set` ('field: expression, field2: expression'): read and applied to a copy of the input. */
import { PipeworkError } from '../../errors';
import type { CommandContext } from '../command-definition';

export interface MappingRule {
  field: string;
  expression: string;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Splits at commas that are outside quotes and brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  const closers: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (OPENERS[c]) closers.push(OPENERS[c]);
    else if (c === closers[closers.length - 1]) closers.pop();
    else if (c === ',' && closers.length === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Reads the rules; each must be `name: expression`. */
export function parseMapping(text: string): MappingRule[] {
  return splitTopLevel(text).map((rule) => {
    const colon = rule.indexOf(':');
    const field = colon > 0 ? rule.slice(0, colon).trim() : '';
    if (!/^[A-Za-z_$][\w$]*$/.test(field)) {
      throw new PipeworkError('PARAM_INVALID', `Mapping rule '${rule}' must read 'field: expression'.`, {
        parameter: 'mapping',
      });
    }
    return { field, expression: rule.slice(colon + 1).trim() };
  });
}

/** A copy of `base` (a map; anything else starts an empty map) with each rule's field set to its value. */
export function applyMapping(
  base: unknown,
  mapping: string,
  ctx: Pick<CommandContext, 'evaluate'>,
): Record<string, unknown> {
  const result: Record<string, unknown> =
    base !== null && typeof base === 'object' && !Array.isArray(base)
      ? { ...(base as Record<string, unknown>) }
      : {};
  for (const { field, expression } of parseMapping(mapping)) result[field] = ctx.evaluate(expression);
  return result;
}
