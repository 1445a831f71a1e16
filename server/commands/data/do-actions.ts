/**
 * The `do` and `where` parameters of `data.list.iterate` and `data.enrich`: PEL run on named values (`itemA`,
 * `input`), several actions separated by `;`, each item's actions in order, in one evaluation per batch.
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { compileExpression, tokenize } from '../../../shared/pel';
import { projectEach, selectEach, unwrap } from './evaluate-in-context';

/** Splits `a = 1; b = 2` at the semicolons outside strings and brackets; empty parts are dropped. */
export function splitActions(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ';' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => unwrap(p.trim())).filter((p) => p !== '');
}

type Evaluating = Pick<CommandContext, 'evaluate' | 'scope'>;

/**
 * Where the names stand as values of their own in an action: identifier tokens not read as a field
 * (`x.itemA`), a variable or a function. Tokens, not the tree: the parser refuses `itemA.x = 1` as it stands.
 */
function namedIdentifiers(action: string, names: readonly string[]): number[] {
  const tokens = tokenize(action);
  const found: number[] = [];
  tokens.forEach((t, i) => {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (t.kind !== 'identifier' || !names.includes(t.value)) return;
    if (before && before.kind === 'punct' && ['.', '?.', '#', '@'].includes(before.value)) return;
    if (after && after.kind === 'punct' && after.value === '(') return;
    found.push(t.start);
  });
  return found;
}

/**
 * The actions as one PEL expression evaluated on each map of named values (`{itemA, itemB}`): it copies the
 * values into PEL variables (`#itemA`), then runs the actions in order with the names read as those variables,
 * so `itemA.allowed = true` writes into the item (PEL assigns to paths from vars, body, headers or `#x`).
 */
export function actionsExpression(text: string, names: readonly string[], parameter: string): string {
  const actions = splitActions(unwrap(text.trim()));
  if (actions.length === 0) {
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' holds no expression.`, { parameter });
  }
  const rewritten = actions.map((action) => {
    let out = action;
    for (const at of namedIdentifiers(action, names).sort((x, y) => y - x))
      out = `${out.slice(0, at)}#${out.slice(at)}`;
    try {
      compileExpression(out);
    } catch (error) {
      if (error instanceof PipeworkError) throw error.withDetails({ parameter, expression: action });
      throw error;
    }
    return `(${out})`;
  });
  const copies = names.map((n) => `(#${n} = ${n})`);
  return `{${[...copies, ...rewritten].join(', ')}}`;
}

/** Runs the actions on each of the maps of named values, in order; the PEL variables of those names are restored. */
export function runActions(
  ctx: Evaluating,
  scopes: Record<string, unknown>[],
  names: readonly string[],
  expression: string,
  parameter: string,
): void {
  if (scopes.length === 0) return;
  const vars = ctx.scope.vars;
  const saved = names.map((n) => [n, Object.prototype.hasOwnProperty.call(vars, n), vars[n]] as const);
  try {
    projectEach(ctx, scopes, expression, parameter);
  } finally {
    for (const [n, had, before] of saved) {
      if (had) vars[n] = before;
      else delete vars[n];
    }
  }
}

/** The maps of named values for which the condition holds (all of them without a condition). */
export function whereHolds(
  ctx: Evaluating,
  scopes: Record<string, unknown>[],
  condition: string | undefined,
  parameter: string,
): Record<string, unknown>[] {
  if (condition === undefined || scopes.length === 0) return scopes;
  return selectEach(ctx, scopes, condition, parameter) as Record<string, unknown>[];
}
