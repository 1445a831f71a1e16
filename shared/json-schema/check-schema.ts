/**
 * Checks data against a JSON Schema by walking it, without generating code: ajv compiles schemas to
 * functions, which a page or worker under a Content-Security-Policy without `unsafe-eval` cannot run. One
 * checker for the workbench's forms and for the static parameter checks of the pipeline validator (server,
 * `pi validate` and the editor's worker alike), so they all say the same.
 *
 * It covers the subset that forms and command contracts use (type, required, enum, const, string lengths,
 * pattern, format, number bounds, items, properties, additionalProperties) and reports in ajv's error shape
 * and words. With `coerceTypes` it coerces scalars as ajv's `coerceTypes: true` does (a URI's "5" is an
 * integer), in place, before the other keywords see the value.
 */

export interface CheckError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

export interface CheckOptions {
  /** Coerce scalars to a declared type, as ajv's `coerceTypes: true` does (the data is changed in place). */
  coerceTypes?: boolean;
}

type Schema = Record<string, unknown>;

/** Stops a hostile schema or value from producing an unbounded list. */
const MAX_ERRORS = 100;

export const FORM_FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

/** ajv's type test: `integer` is a number without a fraction, `number` a finite one. */
function typeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

const NO_COERCION = Symbol('no coercion');

/** ajv's scalar coercions, tried in the order the schema lists its types (`array` is never wrapped). */
function coerce(value: unknown, types: readonly string[]): unknown {
  for (const type of types) {
    switch (type) {
      case 'string':
        if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
        if (value === null) return '';
        break;
      case 'number':
      case 'integer': {
        if (typeof value === 'boolean' || value === null) return Number(value);
        const numeric = typeof value === 'string' && value !== '' && Number(value) == (value as unknown);
        if (numeric && (type === 'number' || !(Number(value) % 1))) return Number(value);
        break;
      }
      case 'boolean':
        if (value === 'false' || value === 0 || value === null) return false;
        if (value === 'true' || value === 1) return true;
        break;
      case 'null':
        if (value === '' || value === 0 || value === false) return null;
        break;
    }
  }
  return NO_COERCION;
}

const PATTERNS = new Map<string, RegExp | null>();
function patternOf(source: string): RegExp | null {
  if (!PATTERNS.has(source)) {
    try {
      PATTERNS.set(source, new RegExp(source, 'u'));
    } catch {
      PATTERNS.set(source, null);
    }
  }
  return PATTERNS.get(source)!;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function pointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The errors of `data` against `schema` (empty when valid). */
export function checkSchema(schema: unknown, data: unknown, options: CheckOptions = {}): CheckError[] {
  const errors: CheckError[] = [];
  /** Checks one value; returns it, coerced when `coerceTypes` changed it. */
  const walk = (s: unknown, input: unknown, path: string, sp: string): unknown => {
    if (s === null || typeof s !== 'object' || errors.length >= MAX_ERRORS) return input;
    const node = s as Schema;
    let value = input;
    const fail = (keyword: string, params: Record<string, unknown>, message: string) =>
      errors.push({ instancePath: path, schemaPath: `${sp}/${keyword}`, keyword, params, message });
    if (node.type !== undefined) {
      const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
      if (!types.some((t) => typeMatches(value, t))) {
        const coerced = options.coerceTypes ? coerce(value, types) : NO_COERCION;
        if (coerced === NO_COERCION) {
          fail('type', { type: types.join(',') }, `must be ${types.join(',')}`);
          return value;
        }
        value = coerced;
      }
    }
    if (Array.isArray(node.enum) && !node.enum.some((e) => sameJson(e, value)))
      fail('enum', { allowedValues: node.enum }, 'must be equal to one of the allowed values');
    if ('const' in node && !sameJson(node.const, value))
      fail('const', { allowedValue: node.const }, 'must be equal to constant');
    if (typeof value === 'string') checkString(node, value, fail);
    if (typeof value === 'number') checkNumber(node, value, fail);
    if (Array.isArray(value)) {
      if (typeof node.minItems === 'number' && value.length < node.minItems)
        fail('minItems', { limit: node.minItems }, `must NOT have fewer than ${node.minItems} items`);
      if (typeof node.maxItems === 'number' && value.length > node.maxItems)
        fail('maxItems', { limit: node.maxItems }, `must NOT have more than ${node.maxItems} items`);
      if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) {
        for (let i = 0; i < value.length; i++) {
          const item = walk(node.items, value[i], `${path}/${i}`, `${sp}/items`);
          if (item !== value[i]) value[i] = item;
        }
      }
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      checkObject(node, value as Record<string, unknown>, path, sp, fail, walk);
    return value;
  };
  walk(schema, data, '', '#');
  return errors;
}

type Fail = (keyword: string, params: Record<string, unknown>, message: string) => void;
type Walk = (s: unknown, value: unknown, path: string, sp: string) => unknown;

function checkString(node: Schema, value: string, fail: Fail): void {
  const length = [...value].length;
  if (typeof node.minLength === 'number' && length < node.minLength)
    fail('minLength', { limit: node.minLength }, `must NOT have fewer than ${node.minLength} characters`);
  if (typeof node.maxLength === 'number' && length > node.maxLength)
    fail('maxLength', { limit: node.maxLength }, `must NOT have more than ${node.maxLength} characters`);
  if (typeof node.pattern === 'string' && patternOf(node.pattern)?.test(value) === false)
    fail('pattern', { pattern: node.pattern }, `must match pattern "${node.pattern}"`);
  const format = typeof node.format === 'string' ? FORM_FORMATS[node.format] : undefined;
  if (format && !format.test(value))
    fail('format', { format: node.format }, `must match format "${String(node.format)}"`);
}

function checkNumber(node: Schema, value: number, fail: Fail): void {
  if (typeof node.maximum === 'number' && value > node.maximum)
    fail('maximum', { comparison: '<=', limit: node.maximum }, `must be <= ${node.maximum}`);
  if (typeof node.minimum === 'number' && value < node.minimum)
    fail('minimum', { comparison: '>=', limit: node.minimum }, `must be >= ${node.minimum}`);
  if (typeof node.exclusiveMaximum === 'number' && value >= node.exclusiveMaximum)
    fail(
      'exclusiveMaximum',
      { comparison: '<', limit: node.exclusiveMaximum },
      `must be < ${node.exclusiveMaximum}`,
    );
  if (typeof node.exclusiveMinimum === 'number' && value <= node.exclusiveMinimum)
    fail(
      'exclusiveMinimum',
      { comparison: '>', limit: node.exclusiveMinimum },
      `must be > ${node.exclusiveMinimum}`,
    );
}

function checkObject(
  node: Schema,
  record: Record<string, unknown>,
  path: string,
  sp: string,
  fail: Fail,
  walk: Walk,
): void {
  if (Array.isArray(node.required))
    for (const name of node.required as string[])
      if (record[name] === undefined)
        fail('required', { missingProperty: name }, `must have required property '${name}'`);
  // In ajv's order: the names not declared, then the declared ones in the schema's order.
  const props = (node.properties ?? {}) as Record<string, unknown>;
  const extra = node.additionalProperties;
  for (const name of Object.keys(record)) {
    if (Object.hasOwn(props, name)) continue;
    if (extra === false)
      fail('additionalProperties', { additionalProperty: name }, 'must NOT have additional properties');
    else if (extra && typeof extra === 'object') check(record, name, extra, `${sp}/additionalProperties`);
  }
  for (const [name, child] of Object.entries(props))
    if (record[name] !== undefined) check(record, name, child, `${sp}/properties/${name}`);

  function check(target: Record<string, unknown>, name: string, child: unknown, childPath: string): void {
    const value = walk(child, target[name], `${path}/${pointer(name)}`, childPath);
    if (value !== target[name]) target[name] = value;
  }
}
