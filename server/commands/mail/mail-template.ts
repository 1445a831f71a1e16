/**
 * Templates for `mail.send` and `property.send.delivery`: `message` / `subject` given as `uri:property:<key>`
 * (or `$uri:property:<key>`, `uri:drive:<path>`) are loaded with the caller's permissions and rendered with
 * `model` in scope; `model` itself is a value or a `uri:property:<key>` / `uri:drive:<path>` reference (JSON
 * text parsed). Rendering: PEL slots (`#{model.field}`), then FreeMarker (server/ftl, the engine of
 * `transform.ftl`) with the model's fields as names (`${field}`, `${model.field}`, `<#list>`, `<#if>`, ...);
 * without a model the names are `body`, `vars` and `headers` (see docs/decisions.md).
 */
import type { CommandContext } from '../../../shared/commands';
import { findTemplateSlots, tokenize } from '../../../shared/pel';
import { templateText } from '../../../shared/pel/values';
import { renderFtl } from '../../ftl';
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

/** The FreeMarker names of a template: the model's fields (and `model`), else `body`, `vars`, `headers`. */
function freemarkerScope(ctx: MailContext, model: unknown): Record<string, unknown> {
  if (model === null || model === undefined)
    return { body: ctx.scope.body, vars: ctx.scope.vars, headers: ctx.scope.headers };
  if (typeof model === 'object' && !Array.isArray(model))
    return { model, ...(model as Record<string, unknown>) };
  return { model };
}

/**
 * Renders a template with `model` in scope: first every PEL slot (`#{model.field}`, any PEL with the
 * pipeline's utilities) is evaluated, then the template is rendered by the FreeMarker engine, each slot's
 * value standing in it as a name, so a value is never read again as a template (no injection either way).
 */
export function renderTemplate(
  ctx: MailContext,
  template: string,
  model: unknown,
  parameter: string,
): string {
  const names = freemarkerScope(ctx, model);
  let ftl = template;
  const slots = findTemplateSlots(template);
  if (slots.length > 0) {
    const saved = ctx.scope.vars;
    ctx.scope.vars = { ...saved, model };
    try {
      slots.forEach((slot, i) => {
        const expression = withModelRoot(template.slice(slot.start, slot.end));
        names[`__pel${i}`] = templateText(ctx.evaluate(`#{${expression}}`));
      });
    } finally {
      ctx.scope.vars = saved;
    }
    slots.forEach((slot, i) => {
      const at = slots.length - 1 - i;
      const last = slots[at]!;
      ftl = `${ftl.slice(0, last.open)}\${__pel${at}}${ftl.slice(last.close)}`;
    });
  }
  return renderFtl(ftl, names, { label: ctx.step.command, parameter });
}
