/**
 * Templates for `mail.send`: `message` / `subject` given as `uri:property:<key>` (or `$uri:property:<key>`)
 * are loaded with the caller's permissions and rendered with `model` in scope; `model` itself is a value or a
 * `uri:property:<key>` / `uri:drive:<path>` reference (JSON text parsed). Rendering: PEL slots
 * (`#{model.field}`) and the simple FreeMarker interpolation (`${model.field}`, `${field}`); FreeMarker
 * directives (`<#if>`, `<#list>`, ...) are refused (see docs/decisions.md).
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { findTemplateSlots, tokenize } from '../../../shared/pel';
import { isBinaryContent } from '../../../shared/values';
import { isCustomUriText } from '../../../shared/uri/custom-uri';
import { resolveUriParameter, uriValueAsText } from '../../uri/resolve-uri';
import type { ServerServices } from '../../services';

type MailContext = CommandContext<ServerServices>;

/** JSON text becomes its value; other text stays text. */
function parsedIfJson(value: unknown): unknown {
  const text = isBinaryContent(value) ? new TextDecoder().decode(value.data) : value;
  if (typeof text !== 'string') return text;
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed) && !/^(true|false|null|-?\d)/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/** The `model` parameter: the value itself, or what its `uri:property:` / `uri:drive:` reference holds. */
export async function modelOf(ctx: MailContext): Promise<unknown> {
  const model = ctx.params.model;
  if (typeof model !== 'string') return model ?? null;
  if (isCustomUriText(model)) return parsedIfJson(await resolveUriParameter(ctx, model, 'model'));
  return parsedIfJson(model);
}

/** `message` / `subject` as a template when it is a `$uri:property:` / `$uri:drive:` reference; else undefined. */
export async function templateOf(
  ctx: MailContext,
  parameter: 'message' | 'subject',
): Promise<string | undefined> {
  const value = ctx.params[parameter];
  if (typeof value !== 'string' || !isCustomUriText(value)) return undefined;
  return uriValueAsText(await resolveUriParameter(ctx, value, parameter, ['property', 'drive']));
}

/**
 * `model` as the root of a slot expression reads `vars.model` (the scope PEL knows has no `model`). Found with
 * PEL's own lexer, so a `model` inside a string or after a dot (`body.model`) stays as it is.
 */
function withModelRoot(expression: string): string {
  let out = expression;
  const tokens = tokenize(expression);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    const after = tokens[i - 1];
    const isMember = after?.kind === 'punct' && (after.value === '.' || after.value === '?.');
    if (token.kind === 'identifier' && token.value === 'model' && !isMember) {
      out = `${out.slice(0, token.start)}vars.model${out.slice(token.end)}`;
    }
  }
  return out;
}

/** Every `#{...}` slot of a template (braces matched and strings skipped by PEL) with its root `model` bound. */
function bindModelInSlots(template: string): string {
  let out = template;
  for (const slot of findTemplateSlots(template).reverse()) {
    out = out.slice(0, slot.start) + withModelRoot(out.slice(slot.start, slot.end)) + out.slice(slot.end);
  }
  return out;
}

/** FreeMarker `${x.y}` as PEL: `model.x.y` stays, a bare `x.y` is a field of the model. */
function freemarkerSlot(expression: string): string {
  const e = expression.trim();
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*|\[\d+\])*$/.test(e)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `The template's \${${e.slice(0, 80)}} is not a simple interpolation (\${field} or \${model.field}); ` +
        'FreeMarker built-ins and expressions are not supported: use #{...} (PEL).',
      { parameter: 'message' },
    );
  }
  return e === 'model' || e.startsWith('model.') || e.startsWith('model[') ? e : `model.${e}`;
}

/** Renders a template with `model` in scope; PARAM_INVALID for FreeMarker directives. */
export function renderTemplate(
  ctx: MailContext,
  template: string,
  model: unknown,
  parameter: string,
): string {
  if (/<\/?#[a-zA-Z]|<@[a-zA-Z]/.test(template)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `The ${parameter} template uses FreeMarker directives (<#...>), which Pipework does not run; ` +
        'use #{...} (PEL) or ${field} interpolations.',
      { parameter },
    );
  }
  // ${...} first becomes a PEL slot, then every slot sees `model`.
  const pel = template.replace(/\$\{([^}]*)\}/g, (_, e: string) => `#{${freemarkerSlot(e)}}`);
  if (!pel.includes('#{')) return pel;
  const bound = bindModelInSlots(pel);
  const saved = ctx.scope.vars;
  ctx.scope.vars = { ...saved, model };
  try {
    return uriValueAsText(ctx.evaluate(bound));
  } finally {
    ctx.scope.vars = saved;
  }
}
