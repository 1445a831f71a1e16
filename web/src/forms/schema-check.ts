/**
 * Checks form data against a JSON Schema by walking it, without compiling code: the workbench's Content
 * Security Policy forbids `eval`, which ajv's compiled validators need. It covers what forms use (type,
 * required, enum, const, string lengths, pattern, format, number bounds, items, properties) and reports in
 * ajv's error shape, so the form library shows the messages at their fields. The server validates again with
 * ajv and the same schema: it is the authority, and what this misses it still refuses.
 */

export interface CheckError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

type Schema = Record<string, unknown>;

export const FORM_FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
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

/** The errors of `data` against `schema` (empty when valid). */
export function checkSchema(schema: unknown, data: unknown): CheckError[] {
  const errors: CheckError[] = [];
  const walk = (s: unknown, value: unknown, path: string, sp: string) => {
    if (s === null || typeof s !== 'object' || errors.length >= 100) return;
    const node = s as Schema;
    const fail = (keyword: string, params: Record<string, unknown>, message: string, at = path) =>
      errors.push({ instancePath: at, schemaPath: `${sp}/${keyword}`, keyword, params, message });
    if (node.type !== undefined) {
      const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
      if (!types.some((t) => typeMatches(value, t))) {
        fail('type', { type: node.type }, `must be ${types.join(',')}`);
        return;
      }
    }
    if (Array.isArray(node.enum) && !node.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
      fail('enum', { allowedValues: node.enum }, 'must be equal to one of the allowed values');
    if ('const' in node && JSON.stringify(node.const) !== JSON.stringify(value))
      fail('const', { allowedValue: node.const }, 'must be equal to constant');
    if (typeof value === 'string') {
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
    if (typeof value === 'number') {
      if (typeof node.minimum === 'number' && value < node.minimum)
        fail('minimum', { comparison: '>=', limit: node.minimum }, `must be >= ${node.minimum}`);
      if (typeof node.maximum === 'number' && value > node.maximum)
        fail('maximum', { comparison: '<=', limit: node.maximum }, `must be <= ${node.maximum}`);
      if (typeof node.exclusiveMinimum === 'number' && value <= node.exclusiveMinimum)
        fail(
          'exclusiveMinimum',
          { comparison: '>', limit: node.exclusiveMinimum },
          `must be > ${node.exclusiveMinimum}`,
        );
      if (typeof node.exclusiveMaximum === 'number' && value >= node.exclusiveMaximum)
        fail(
          'exclusiveMaximum',
          { comparison: '<', limit: node.exclusiveMaximum },
          `must be < ${node.exclusiveMaximum}`,
        );
    }
    if (Array.isArray(value)) {
      if (typeof node.minItems === 'number' && value.length < node.minItems)
        fail('minItems', { limit: node.minItems }, `must NOT have fewer than ${node.minItems} items`);
      if (typeof node.maxItems === 'number' && value.length > node.maxItems)
        fail('maxItems', { limit: node.maxItems }, `must NOT have more than ${node.maxItems} items`);
      if (node.items && typeof node.items === 'object' && !Array.isArray(node.items))
        value.forEach((item, i) => walk(node.items, item, `${path}/${i}`, `${sp}/items`));
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      if (Array.isArray(node.required))
        for (const name of node.required as string[])
          if (record[name] === undefined)
            fail('required', { missingProperty: name }, `must have required property '${name}'`);
      const props = (node.properties ?? {}) as Record<string, unknown>;
      for (const [name, child] of Object.entries(props))
        if (record[name] !== undefined)
          walk(
            child,
            record[name],
            `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
            `${sp}/properties/${name}`,
          );
    }
  };
  walk(schema, data, '', '#');
  return errors;
}
