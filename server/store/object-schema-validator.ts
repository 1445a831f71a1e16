/**
 * Validates object instances (`<app>/object/<NAME>/<VERSION>/instance/<UUID>`) against their sibling
 * `schema` property with ajv, and checks that a schema written there compiles. Compiled schemas are cached
 * by the schema property's uuid and version, so a changed schema takes effect at once.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { PipeworkError } from '../../shared/errors';
import { isJsonType, objectKeyOf, type Property } from '../../shared/property';
import {
  JSON_SCHEMA_TYPES as JSON_TYPES,
  LENIENT_SCHEMA_TYPES as LENIENT_TYPES,
  SCHEMA_DATA_KEYWORDS as DATA_KEYWORDS,
} from '../../shared/property/lenient-schema-types';

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

const MAX_CACHED = 500;
/** Field errors reported at most per refused instance. */
const MAX_REPORTED = 50;

function invalidValue(message: string, details: Record<string, unknown> = {}): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter: 'value', ...details });
}

function parseJson(text: string | null, what: string): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    throw invalidValue(`The value of ${what} is not valid JSON.`);
  }
}

const describeType = (type: string | readonly string[]): string =>
  Array.isArray(type) ? type.map((t) => `"${t}"`).join(' or ') : `"${type}"`;

/** One lenient reading: where, the name written, what it is read as. */
export interface SchemaLeniency {
  path: string;
  written: string;
  readAs: string | string[];
}

/** The warning a lenient reading gives, naming what we read the type as. */
export function leniencyWarning(schemaKey: string, l: SchemaLeniency): string {
  return `Schema '${schemaKey}': type '${l.written}' at ${l.path || '/'} is not a JSON Schema type; read as ${describeType(l.readAs)}.`;
}

function lenientType(
  written: string,
  path: string,
  schemaKey: string,
  notes: SchemaLeniency[],
): string | string[] {
  if (JSON_TYPES.has(written)) return written;
  const lower = written.toLowerCase();
  const lenient = LENIENT_TYPES[lower];
  // A copy: the schema that gets it is the caller's to change.
  const readAs = JSON_TYPES.has(lower)
    ? lower
    : typeof lenient === 'string'
      ? lenient
      : lenient && [...lenient];
  if (readAs === undefined)
    throw invalidValue(
      `Schema '${schemaKey}': type '${written.slice(0, 60)}' at ${path || '/'} is neither a JSON Schema type ` +
        `(${[...JSON_TYPES].join(', ')}) nor one read leniently (dateTime, date, int, long, double, bool, ...).`,
    );
  notes.push({ path, written, readAs });
  return readAs;
}

/**
 * Real apps' schemas keep what the real product accepts: an `enum: []` placeholder the form fills at run time
 * (constrains nothing here; ajv would refuse to compile it) and type names that are not JSON Schema's
 * (`dateTime`, `int`, `String`, ...), read as the JSON type they mean and noted. Iterative: schemas may nest
 * deeply.
 */
export function readLenientSchema(
  document: object,
  schemaKey = 'schema',
): { schema: object; notes: SchemaLeniency[] } {
  const copy = structuredClone(document) as Record<string, unknown>;
  const notes: SchemaLeniency[] = [];
  const stack: [unknown, string][] = [[copy, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.enum.length === 0) delete record.enum;
      if (typeof record.type === 'string') record.type = lenientType(record.type, path, schemaKey, notes);
      else if (Array.isArray(record.type) && record.type.every((t) => typeof t === 'string'))
        record.type = [
          ...new Set((record.type as string[]).flatMap((t) => lenientType(t, path, schemaKey, notes))),
        ];
    }
    for (const [name, child] of Object.entries(node))
      if (child !== null && typeof child === 'object' && !DATA_KEYWORDS.has(name))
        stack.push([child, `${path}/${name}`]);
  }
  notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { schema: copy, notes };
}

/** The warnings of a schema's value (JSON text); none when it is not JSON or reads strictly. */
export function schemaLeniencyWarnings(schemaKey: string, text: string | null): string[] {
  let document: unknown;
  try {
    document = JSON.parse(text ?? 'null');
  } catch {
    return [];
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return [];
  return readLenientSchema(document, schemaKey).notes.map((n) => leniencyWarning(schemaKey, n));
}

function compileSchema(text: string | null, schemaKey: string): ValidateFunction {
  const document = parseJson(text, `schema '${schemaKey}'`);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw invalidValue(`Schema '${schemaKey}' is not a JSON Schema object.`);
  }
  try {
    // A fresh ajv per schema: schemas with the same `$id` (two versions of one object) must not clash.
    return new Ajv({ allErrors: true, strict: false, logger: false, formats: FORMATS }).compile(
      readLenientSchema(document, schemaKey).schema,
    );
  } catch (error) {
    if (error instanceof PipeworkError) throw error;
    throw invalidValue(`Schema '${schemaKey}' is not a valid JSON Schema: ${(error as Error).message}`);
  }
}

export class ObjectSchemaValidator {
  private readonly cache = new Map<string, ValidateFunction>();

  private compiled(schema: Property): ValidateFunction {
    const id = `${schema.uuid}@${schema.version}`;
    let validate = this.cache.get(id);
    if (!validate) {
      validate = compileSchema(schema.value, schema.key);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, validate);
    }
    return validate;
  }

  /**
   * Checks a value about to be stored at `key`: a schema must compile, an instance must be JSON matching its
   * schema (when the schema exists). PARAM_INVALID otherwise. Other keys pass untouched.
   */
  async check(
    key: string,
    value: string | null,
    type: string,
    readSchema: (schemaKey: string) => Promise<Property | undefined>,
  ): Promise<void> {
    const objectKey = objectKeyOf(key);
    const schema = objectKey?.kind === 'instance' ? await readSchema(objectKey.schemaKey) : undefined;
    this.checkAgainst(key, value, type, schema);
  }

  /** `check` with the instance's schema property already read (undefined: none, or not an instance). */
  checkAgainst(key: string, value: string | null, type: string, schema: Property | undefined): void {
    const objectKey = objectKeyOf(key);
    if (!objectKey) return;
    if (objectKey.kind === 'schema') {
      compileSchema(value, key);
      return;
    }
    if (!isJsonType(type))
      throw invalidValue(`An object instance is JSON: its type must be application/json, not '${type}'.`);
    const instance = parseJson(value, `instance '${key}'`);
    if (!schema) return;
    const validate = this.compiled(schema);
    if (!validate(instance)) {
      const error = validate.errors![0]!;
      const where = error.instancePath || '/';
      throw invalidValue(
        `The value does not match schema '${schema.key}': ${where} ${error.message ?? 'is invalid'}.`,
        {
          schemaKey: schema.key,
          instancePath: error.instancePath,
          // Every field's problem, so that a form shows each at its field (the first is in the message).
          errors: validate.errors!.slice(0, MAX_REPORTED).map((e) => ({
            instancePath: e.instancePath,
            keyword: e.keyword,
            params: e.params,
            message: e.message ?? 'is invalid',
          })),
        },
      );
    }
  }
}
