/**
 * Templates for `mail.send`: `message` / `subject` given as `uri:property:<key>` (or `$uri:property:<key>`)
 * are loaded with the caller's permissions and rendered with `model` in scope; `model` itself is a value or a
 * `uri:property:<key>` / `uri:drive:<path>` reference (JSON text parsed). Rendering: PEL slots
 * (`#{model.field}`) and the simple FreeMarker interpolation (`${model.field}`, `${field}`); FreeMarker
 * directives (`<#if>`, `<#list>`, ...) are refused (see docs/decisions.md).
 */
import type { CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { decodePropertyValue } from '../../../shared/property';
import { isBinaryContent } from '../../../shared/values';
import { PEL_DRIVE_LIMIT } from '../../drive/drive-uri-resolver';
import type { ServerServices } from '../../services';

type MailContext = CommandContext<ServerServices>;

const PROPERTY_URI = /^\$?uri:property:/;
const DRIVE_URI = /^\$?uri:drive:/;

/** Text of a loaded value: strings as they are, bytes as UTF-8, anything else as JSON. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isBinaryContent(value)) return new TextDecoder().decode(value.data);
  return JSON.stringify(value);
}

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

/** A property's value, read as property.get reads it (FORBIDDEN / PROPERTY_NOT_FOUND, never its content). */
async function propertyValue(ctx: MailContext, key: string): Promise<unknown> {
  const property = await ctx.services.properties.get(ctx.principal, key);
  return decodePropertyValue(property);
}

/** The `model` parameter: the value itself, or what its `uri:property:` / `uri:drive:` reference holds. */
export async function modelOf(ctx: MailContext): Promise<unknown> {
  const model = ctx.params.model;
  if (typeof model !== 'string') return model ?? null;
  const reference = model.trim();
  if (PROPERTY_URI.test(reference))
    return parsedIfJson(await propertyValue(ctx, reference.replace(PROPERTY_URI, '')));
  if (DRIVE_URI.test(reference)) {
    const path = reference.replace(DRIVE_URI, '');
    return parsedIfJson(await ctx.services.drive.read(ctx.principal, path, PEL_DRIVE_LIMIT));
  }
  return parsedIfJson(model);
}

/** `message` / `subject` as a template when it is a `uri:property:` reference; else undefined. */
export async function templateOf(
  ctx: MailContext,
  parameter: 'message' | 'subject',
): Promise<string | undefined> {
  const value = ctx.params[parameter];
  if (typeof value !== 'string' || !PROPERTY_URI.test(value.trim())) return undefined;
  return textOf(await propertyValue(ctx, value.trim().replace(PROPERTY_URI, '')));
}

/** `model` as the root of a slot expression reads `vars.model` (the scope PEL knows has no `model`). */
function withModelRoot(expression: string): string {
  return expression.replace(/(^|[^\w.#@'"$])model\b/g, '$1vars.model');
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
  const pel = template
    .replace(/\$\{([^}]*)\}/g, (_, e: string) => `#{${freemarkerSlot(e)}}`)
    .replace(/#\{([^}]*)\}/g, (_, e: string) => `#{${withModelRoot(e)}}`);
  if (!pel.includes('#{')) return pel;
  const saved = ctx.scope.vars;
  ctx.scope.vars = { ...saved, model };
  try {
    return textOf(ctx.evaluate(pel));
  } finally {
    ctx.scope.vars = saved;
  }
}
