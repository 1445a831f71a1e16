/**
 * Evaluating PEL "inside" a value: bare names read the value's fields (`price > 10` on an item), while
 * `body`, `vars` and `headers` still reach the pipeline (unless the value has a field of that name).
 * Done with PEL's own projection and selection over a hidden variable, so the language rules are the same.
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { compileExpression, findTemplateSlots } from '../../../shared/pel';

const HIDDEN = '__pipework_items';

type Evaluating = Pick<CommandContext, 'evaluate' | 'scope'>;

/** Runs `fn` with `items` in the hidden variable, restoring what was there. */
function withItems<T>(ctx: Evaluating, items: unknown[], fn: () => T): T {
  const vars = ctx.scope.vars;
  const had = Object.prototype.hasOwnProperty.call(vars, HIDDEN);
  const before = vars[HIDDEN];
  vars[HIDDEN] = items;
  try {
    return fn();
  } finally {
    if (had) vars[HIDDEN] = before;
    else delete vars[HIDDEN];
  }
}

/** Checks the expression alone first, so a syntax error points into what the user wrote. */
function checked(expression: string, parameter: string): string {
  try {
    compileExpression(expression);
  } catch (error) {
    if (error instanceof PipeworkError) throw error.withDetails({ parameter, expression });
    throw error;
  }
  return expression;
}

/** An expression may be written as a template (`#{price > 10}`) or bare: the bare text. */
export function unwrap(expression: string): string {
  const match = /^\s*#\{([\s\S]*)\}\s*$/.exec(expression);
  return match && !match[1]!.includes('#{') ? match[1]! : expression;
}

/** The expression's value for each item (PEL projection). */
export function projectEach(ctx: Evaluating, items: unknown[], expression: string, parameter: string): unknown[] {
  checked(expression, parameter);
  return withItems(ctx, items, () => ctx.evaluate(`vars.${HIDDEN}.![${expression}]`) as unknown[]);
}

/** The items for which the condition holds (PEL selection). */
export function selectEach(ctx: Evaluating, items: unknown[], condition: string, parameter: string): unknown[] {
  checked(condition, parameter);
  return withItems(ctx, items, () => ctx.evaluate(`vars.${HIDDEN}.?[${condition}]`) as unknown[]);
}

/** One expression evaluated inside one value. */
export function evaluateIn(ctx: Evaluating, value: unknown, expression: string, parameter: string): unknown {
  return projectEach(ctx, [value], expression, parameter)[0];
}

/** How a template is rendered: the text itself, or its slots' list expression and the text around them. */
interface PreparedTemplate {
  slots: ReturnType<typeof findTemplateSlots>;
  projection: string;
  whole: boolean;
  /** Where each slot's expression starts in `projection`. */
  starts: number[];
  template: string;
}

const PROJECTION_HEAD = `vars.${HIDDEN}.![{`;

/**
 * A PEL error in the slots' list expression, told in the template's own terms: its offset in the template
 * (`parameterOffset`, which the runner turns into the line and column in the pipeline) and the slot's text,
 * instead of the list's line 1.
 */
function inTemplate(error: unknown, prepared: PreparedTemplate, base: number, parameter: string): unknown {
  if (!(error instanceof PipeworkError) || typeof error.details.offset !== 'number') return error;
  const at = error.details.offset + base;
  let i = prepared.starts.length - 1;
  while (i > 0 && prepared.starts[i]! > at) i -= 1;
  const slot = prepared.slots[i]!;
  const offset = Math.min(slot.start + Math.max(at - prepared.starts[i]!, 0), slot.end);
  const { line: _line, column: _column, offset: _offset, ...details } = error.details;
  // The ')' closing a slot in the list is the end of what the user wrote.
  const pastEnd = slot.start + (at - prepared.starts[i]!) >= slot.end;
  let message = error.message.replace(/^\d+:\d+: /, '');
  if (pastEnd) message = message.replace("unexpected ')'", 'unexpected end of the expression');
  return new PipeworkError(
    error.code,
    message,
    { ...details, parameter, parameterOffset: offset, expression: `#{${prepared.template.slice(slot.start, slot.end)}}` },
    { cause: error.cause },
  );
}

function prepareTemplate(template: string, parameter: string): PreparedTemplate {
  const slots = findTemplateSlots(template);
  const starts: number[] = [];
  let list = '';
  slots.forEach((s, i) => {
    list += i === 0 ? '(' : ', (';
    starts.push(PROJECTION_HEAD.length + list.length);
    list += `${template.slice(s.start, s.end)})`;
  });
  const prepared = {
    slots,
    projection: `${PROJECTION_HEAD}${list}}]`,
    whole: slots.length === 1 && slots[0]!.open === 0 && slots[0]!.close === template.length,
    starts,
    template,
  };
  if (slots.length > 0) {
    try {
      compileExpression(`{${list}}`);
    } catch (error) {
      // The list alone starts at the projection's '{'.
      throw inTemplate(error, prepared, PROJECTION_HEAD.length - 1, parameter);
    }
  }
  return prepared;
}

/**
 * A PEL template (`Dear #{name},`) to evaluate inside values: the text with each `#{...}` replaced by its
 * value (a template that is one `#{...}` alone gives the value itself, not its text). The template is read
 * once, on the first value, however many values it renders.
 */
export function templateRenderer(
  template: string,
  parameter: string,
): (ctx: Evaluating, value: unknown) => unknown {
  let prepared: PreparedTemplate | undefined;
  return (ctx, value) => {
    prepared ??= prepareTemplate(template, parameter);
    const { slots, projection, whole } = prepared;
    const current = prepared;
    if (slots.length === 0) return template;
    let values: unknown[];
    try {
      values = (withItems(ctx, [value], () => ctx.evaluate(projection)) as unknown[])[0] as unknown[];
    } catch (error) {
      throw inTemplate(error, current, 0, parameter);
    }
    if (whole) return values[0];
    let out = '';
    let at = 0;
    slots.forEach((slot, i) => {
      out += template.slice(at, slot.open) + asText(values[i]);
      at = slot.close;
    });
    return out + template.slice(at);
  };
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
