/** Templates: text with `#{...}` expressions; one whole-text expression keeps its type, mixed text is a string. */
import { pelError, toPelError } from './errors';
import { CompiledExpression } from './expression';
import { resolveLimits } from './limits';
import { checkString, createRuntime } from './runtime';
import type { PelOptions, PelScope } from './types';
import { templateText } from './values';

export type TemplateKind = 'constant' | 'expression' | 'mixed';

export interface PelTemplate {
  /** No `#{}` / exactly one `#{...}` and nothing else / text mixed with expressions (the result is a string). */
  readonly kind: TemplateKind;
  readonly text: string;
  evaluate(scope: PelScope, options?: PelOptions): unknown;
  /** For `output: "#{vars.x}"`: the template must be one assignable expression. */
  assign(scope: PelScope, value: unknown, options?: PelOptions): void;
}

/** A `#{...}` found in a text: where it opens, and the expression between the braces. */
export interface TemplateSlot {
  open: number;
  start: number;
  end: number;
  close: number;
}

/** True when the text has a `#{` (so it is a template, not a constant). */
export function containsExpression(text: string): boolean {
  return text.includes('#{');
}

/**
 * Finds every `#{...}` of a text, matching braces and skipping quoted strings, so `#{ {a:1}['a'] }`,
 * `#{'}'}` and nested `#{#{x}}` work. Throws PEL_SYNTAX for an unclosed one (or `tolerant` ends it at the end).
 */
export function findTemplateSlots(text: string, tolerant = false): TemplateSlot[] {
  const slots: TemplateSlot[] = [];
  let i = text.indexOf('#{');
  while (i >= 0) {
    const open = i;
    let depth = 1;
    let j = i + 2;
    for (; j < text.length && depth > 0; j++) {
      const c = text[j];
      if (c === "'" || c === '"') {
        const endQuote = skipString(text, j);
        if (endQuote < 0) {
          if (tolerant) {
            j = text.length;
            break;
          }
          throw pelError('UNTERMINATED_STRING', { source: text, start: j, end: text.length });
        }
        j = endQuote;
      } else if (c === '{') depth++;
      else if (c === '}') depth--;
    }
    if (depth > 0) {
      if (!tolerant) throw pelError('UNTERMINATED_TEMPLATE', { source: text, start: open, end: text.length });
      slots.push({ open, start: open + 2, end: text.length, close: text.length });
      break;
    }
    slots.push({ open, start: open + 2, end: j - 1, close: j });
    i = text.indexOf('#{', j);
  }
  return slots;
}

/** Returns the index of the closing quote of the string starting at `i`, or -1. */
function skipString(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === quote) {
      if (text[j + 1] === quote) j++;
      else return j;
    }
  }
  return -1;
}

class ConstantTemplate implements PelTemplate {
  readonly kind = 'constant';
  constructor(readonly text: string) {}
  evaluate(): unknown {
    return this.text;
  }
  assign(): void {
    throw pelError(
      'NOT_WRITABLE',
      { source: this.text, start: 0, end: this.text.length },
      'a text without #{...} cannot be assigned',
    );
  }
}

class ExpressionTemplate implements PelTemplate {
  readonly kind = 'expression';
  constructor(
    readonly text: string,
    private readonly expression: CompiledExpression,
  ) {}
  evaluate(scope: PelScope, options?: PelOptions): unknown {
    return this.expression.evaluate(scope, options);
  }
  assign(scope: PelScope, value: unknown, options?: PelOptions): void {
    this.expression.assign(scope, value, options);
  }
}

class MixedTemplate implements PelTemplate {
  readonly kind = 'mixed';
  constructor(
    readonly text: string,
    private readonly parts: (string | CompiledExpression)[],
  ) {}
  evaluate(scope: PelScope, options?: PelOptions): unknown {
    const limits = resolveLimits(options?.limits);
    const rt = createRuntime(scope, options?.utilities, limits, options?.deadline);
    let out = '';
    for (const part of this.parts) {
      if (typeof part === 'string') out += part;
      else {
        part.checkLimits(limits);
        const value = part.evaluateIn(rt);
        try {
          // Printing can fail too (a list that contains itself): that is the slot's error, with its position.
          out += templateText(value, limits.maxStringLength);
        } catch (e) {
          throw toPelError(e, part.site);
        }
      }
    }
    return checkString(out, rt, { source: this.text, start: 0, end: this.text.length });
  }
  assign(): void {
    throw pelError(
      'NOT_WRITABLE',
      { source: this.text, start: 0, end: this.text.length },
      'text mixed with #{...} cannot be assigned',
    );
  }
}

/** Compiles a template text (uncached; see `compileTemplate` in index.ts for the cached one). */
export function buildTemplate(text: string): PelTemplate {
  const slots = findTemplateSlots(text);
  if (slots.length === 0) return new ConstantTemplate(text);
  if (slots.length === 1 && slots[0]!.open === 0 && slots[0]!.close === text.length) {
    return new ExpressionTemplate(text, new CompiledExpression(text, slots[0]!.start, slots[0]!.end));
  }
  const parts: (string | CompiledExpression)[] = [];
  let at = 0;
  for (const slot of slots) {
    if (slot.open > at) parts.push(text.slice(at, slot.open));
    parts.push(new CompiledExpression(text, slot.start, slot.end));
    at = slot.close;
  }
  if (at < text.length) parts.push(text.slice(at));
  return new MixedTemplate(text, parts);
}
