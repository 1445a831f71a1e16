/**
 * Validates object instances (`<app>/object/<NAME>/<VERSION>/instance/<UUID>`) against their sibling
 * `schema` property with ajv, and checks that a schema written there compiles. Compiled schemas are cached
 * by the schema property's uuid and version, so a changed schema takes effect at once.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { PipeworkError } from '../../shared/errors';
import { isJsonType, objectKeyOf, type Property } from '../../shared/property';

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

const MAX_CACHED = 500;

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

/**
 * Real apps' schemas keep placeholders the real product accepts: an `enum: []` that the form fills at run
 * time. Such an empty enum constrains nothing here (ajv would refuse to compile it). Iterative: schemas
 * may nest deeply.
 */
function withoutEmptyEnums(document: object): object {
  const copy = structuredClone(document) as Record<string, unknown>;
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.enum.length === 0) delete record.enum;
    }
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') stack.push(child);
  }
  return copy;
}

function compileSchema(text: string | null, schemaKey: string): ValidateFunction {
  const document = parseJson(text, `schema '${schemaKey}'`);
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw invalidValue(`Schema '${schemaKey}' is not a JSON Schema object.`);
  }
  try {
    // A fresh ajv per schema: schemas with the same `$id` (two versions of one object) must not clash.
    return new Ajv({ allErrors: false, strict: false, logger: false, formats: FORMATS }).compile(
      withoutEmptyEnums(document),
    );
  } catch (error) {
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
        },
      );
    }
  }
}
