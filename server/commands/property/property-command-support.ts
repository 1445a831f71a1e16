/** What the property.* commands share: the service, parameter schemas, and how a value is taken from params or body. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { objectKeyOf } from '../../../shared/property';
import { schemaLeniencyWarnings } from '../../store/object-schema-validator';
import type { PropertyService } from '../../store/property-service';
import type { ServerServices } from '../../services';

export type PropertyContext = CommandContext<ServerServices>;

export function propertiesOf(ctx: PropertyContext): PropertyService {
  return ctx.services.properties;
}

export const KEY: JsonSchema = {
  type: 'string',
  description: 'The property key, e.g. global/app/myapp/config/app (a leading / is ignored).',
};

export const PATH: JsonSchema = {
  type: 'string',
  description:
    "The property path, e.g. global/app/myapp/config/app (a leading / is ignored). The real product's name; `key` is its older one.",
};

/** `path` (the real product's name) beside `key` (its deprecated one): one of them is required. */
export const KEY_OR_PATH: Record<string, JsonSchema> = {
  key: { ...KEY, description: 'The same as path (deprecated in the real product).' },
  path: PATH,
};

/** The contract's `requiredOneOf` of commands that take the key as `path` or `key`. */
export const KEY_OR_PATH_GIVEN = [['path', 'key']];

/** The property key from `path` or `key`: PARAM_INVALID when neither is given, or both with different values. */
export function keyOf(ctx: PropertyContext): string {
  const path = textParam(ctx, 'path');
  const key = textParam(ctx, 'key');
  if (path !== undefined && key !== undefined && path !== key) {
    throw new PipeworkError(
      'PARAM_INVALID',
      "Give 'path' or 'key' (the same thing), not both with different values.",
      {
        parameter: 'path',
      },
    );
  }
  const found = path ?? key;
  if (found === undefined) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Missing required parameter 'path' (or 'key') for command '${ctx.step.command}'.`,
      {
        parameter: 'path',
      },
    );
  }
  return found;
}

export const PATTERN: JsonSchema = {
  type: 'string',
  description:
    'A key pattern: * matches within one segment, ** any number of segments, e.g. global/app/*/object/*/v1/schema.',
};

export const TARGET_KEY: JsonSchema = {
  type: 'string',
  description: 'The key to copy or move the property to.',
};

export const ATTACHMENT_NAME: JsonSchema = {
  type: 'string',
  description: 'The name of the attachment (a file name: no /, \\ or control characters).',
};

/** A text parameter, or undefined when absent or empty. */
export function textParam(ctx: PropertyContext, name: string): string | undefined {
  const value = ctx.params[name];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/** The first of several parameter names that is set (e.g. `pattern` or its older name `filter`). */
export function firstParam(ctx: PropertyContext, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = textParam(ctx, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** `evalValue`: whether `#{...}` in the value parameter is evaluated (default) or stored as written. */
export const EVAL_VALUE: JsonSchema = {
  type: 'boolean',
  default: true,
  description: 'When false, expressions (#{...}) in value are stored as written, e.g. to store a pipeline.',
};

function evaluateTemplates(ctx: PropertyContext, value: unknown): unknown {
  if (typeof value === 'string') return value.includes('#{') ? ctx.evaluate(value) : value;
  if (Array.isArray(value)) return value.map((v) => evaluateTemplates(ctx, v));
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = evaluateTemplates(ctx, v);
    return out;
  }
  return value;
}

/**
 * The `value` parameter (declared raw, so its expressions are evaluated here unless `evalValue` is false),
 * else the input body (undefined when that is empty too; a body is never evaluated).
 */
export function valueOf(ctx: PropertyContext): unknown {
  const raw = ctx.params.value;
  if (raw !== undefined) return ctx.params.evalValue === false ? raw : evaluateTemplates(ctx, raw);
  return ctx.input === null || ctx.input === undefined ? undefined : ctx.input;
}

/** A whole number parameter (query strings arrive coerced by the contract's schema). */
export function integerParam(ctx: PropertyContext, name: string): number | undefined {
  const value = ctx.params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new PipeworkError('PARAM_INVALID', `Parameter '${name}' must be a whole number.`, {
      parameter: name,
    });
  }
  return value;
}

/**
 * A schema just stored (`<app>/object/<NAME>/<VERSION>/schema`) with type names JSON Schema lacks: one warning
 * per name, naming what it is read as, in the run's log and trace. The warnings, for the command's answer.
 */
export function warnOfLenientSchema(
  ctx: PropertyContext,
  property: { key: string; value: string | null },
): string[] {
  const key = property.key.replace(/^\//, '');
  if (objectKeyOf(key)?.kind !== 'schema') return [];
  const warnings = schemaLeniencyWarnings(key, property.value);
  for (const warning of warnings) ctx.log('WARN', warning);
  return warnings;
}
