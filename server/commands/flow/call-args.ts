/**
 * `call`'s `args`, read before anything in them is evaluated: a map (each value a template, evaluated on its
 * own), JSON text, one `#{...}` giving a map, or `name=value, name2=value2` text split at the commas written
 * in the pipeline (never at commas inside `#{...}` or inside what an expression gives), so data that holds
 * `,name=` stays one value and cannot set another var.
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { containsExpression, findTemplateSlots } from '../../../shared/pel';
import { mapParam } from './pipeline-start';

type Evaluating = Pick<CommandContext, 'evaluate'>;

function valueOf(ctx: Evaluating, raw: unknown): unknown {
  if (typeof raw === 'string') return containsExpression(raw) ? ctx.evaluate(raw) : raw;
  if (Array.isArray(raw)) return raw.map((v) => valueOf(ctx, v));
  if (raw !== null && typeof raw === 'object')
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, valueOf(ctx, v)]));
  return raw;
}

/** The commas of `text` that lie outside every `#{...}` slot. */
function topLevelCommas(text: string): number[] {
  const slots = findTemplateSlots(text);
  const commas: number[] = [];
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1))
    if (!slots.some((s) => i >= s.open && i < s.close)) commas.push(i);
  return commas;
}

function splitPairs(text: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (const comma of topLevelCommas(text)) {
    pieces.push(text.slice(at, comma));
    at = comma + 1;
  }
  pieces.push(text.slice(at));
  return pieces;
}

function pairsOf(ctx: Evaluating, text: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const pair of splitPairs(text)) {
    if (pair.trim() === '') continue;
    const match = /^\s*([A-Za-z_$][\w$]*)\s*[=:]\s*([\s\S]*?)\s*$/.exec(pair);
    if (!match) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `Argument '${pair.trim().slice(0, 200)}' must read name=value.`,
        {
          parameter: 'args',
        },
      );
    }
    args[match[1]!] = valueOf(ctx, match[2]);
  }
  return args;
}

/** `args` as given in the pipeline (not yet evaluated) → the vars for the called pipeline. */
export function argsOf(ctx: Evaluating, raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return mapParam(valueOf(ctx, raw), 'args');
  const text = raw.trim();
  if (text === '') return {};
  const slots = findTemplateSlots(text);
  const whole = slots.length === 1 && slots[0]!.open === 0 && slots[0]!.close === text.length;
  if (whole || text.startsWith('{')) return mapParam(valueOf(ctx, text), 'args');
  return pairsOf(ctx, text);
}
