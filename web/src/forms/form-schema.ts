/**
 * Turns an app's object schema into what the form library renders: the real product's lenient type names read
 * as JSON Schema's (as the server reads them), `piStyle.hidden` fields hidden, file fields ({filename,
 * content, ...}) drawn as a file picker, and the columns of a list. Pure, so it is tested without a browser.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import {
  JSON_SCHEMA_TYPES as JSON_TYPES,
  LENIENT_SCHEMA_TYPES,
  SCHEMA_DATA_KEYWORDS as DATA_KEYWORDS,
} from '../../../shared/property/lenient-schema-types';

const FORMAT_OF: Record<string, string> = { datetime: 'date-time', date: 'date', email: 'email' };

type Node = Record<string, unknown>;

/** A file field: an object with `content` and `filename` (the real product's upload shape). */
export function isFileField(schema: unknown): boolean {
  const props = (schema as Node | undefined)?.properties as Node | undefined;
  return (
    (schema as Node | undefined)?.type === 'object' && !!props && 'content' in props && 'filename' in props
  );
}

/** Whether a field is hidden in forms and lists (`piStyle.hidden`). */
export function isHidden(schema: unknown): boolean {
  return ((schema as Node | undefined)?.piStyle as Node | undefined)?.hidden === true;
}

/** A copy of the schema with lenient types read as JSON Schema's and empty enums dropped. */
export function normalizeSchema(document: unknown): RJSFSchema {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw new Error('The schema is not a JSON object.');
  const copy = structuredClone(document) as Node;
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      const record = node as Node;
      if (Array.isArray(record.enum) && record.enum.length === 0) delete record.enum;
      if (typeof record.type === 'string' && !JSON_TYPES.has(record.type)) {
        const lower = record.type.toLowerCase();
        const lenient = LENIENT_SCHEMA_TYPES[lower];
        // A form draws a date as text: the first of what the server also accepts.
        const readAs = JSON_TYPES.has(lower) ? lower : typeof lenient === 'string' ? lenient : lenient?.[0];
        if (readAs === undefined) throw new Error(`Type '${record.type}' is not a JSON Schema type.`);
        if (FORMAT_OF[lower] && record.format === undefined) record.format = FORMAT_OF[lower];
        record.type = readAs;
      }
      for (const [name, child] of Object.entries(record))
        if (child !== null && typeof child === 'object' && !DATA_KEYWORDS.has(name)) stack.push(child);
    } else stack.push(...(node as unknown[]));
  }
  return copy as RJSFSchema;
}

/** The form library's layout hints: hidden fields, file pickers, long text as text areas. */
export function uiSchemaOf(schema: RJSFSchema): UiSchema {
  const ui: UiSchema = {};
  for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
    if (isFileField(field)) ui[name] = { 'ui:field': 'file' };
    else if (isHidden(field)) ui[name] = { 'ui:widget': 'hidden' };
    else if (field.type === 'string' && typeof field.maxLength === 'number' && field.maxLength > 200)
      ui[name] = { 'ui:widget': 'textarea' };
  }
  return ui;
}

export interface ListColumn {
  field: string;
  title: string;
  format?: string;
  type?: string;
}

/** A list's columns: the schema's visible top-level fields with their titles (files and hidden fields left out). */
export function columnsOf(schema: RJSFSchema, only?: readonly string[]): ListColumn[] {
  const props = (schema.properties ?? {}) as Record<string, Node>;
  const names = only ?? Object.keys(props);
  return names
    .filter((name) => props[name] && !isHidden(props[name]) && !isFileField(props[name]))
    .filter((name) => props[name]!.type !== 'object' && props[name]!.type !== 'array')
    .map((name) => {
      const field = props[name]!;
      const title = typeof field.title === 'string' ? field.title.replace(/\s*\*$/, '') : name;
      return {
        field: name,
        title,
        ...(typeof field.format === 'string' ? { format: field.format } : {}),
        ...(typeof field.type === 'string' ? { type: field.type } : {}),
      };
    });
}

/** Server field errors (ajv `instancePath`) as the form library's error tree. */
export function errorTreeOf(errors: readonly { instancePath: string; message: string }[]): Node {
  const tree: Node = {};
  for (const error of errors) {
    let node = tree;
    for (const segment of error.instancePath.split('/').filter(Boolean)) {
      node[segment] ??= {};
      node = node[segment] as Node;
    }
    ((node.__errors ??= []) as string[]).push(error.message);
  }
  return tree;
}

/**
 * The title a message names a field by: `.senderEmail` or `.positions.0.amount` (the form library's error
 * `property`) read in the schema, the titles of the path joined (`Positions 1 › Amount`); the name when a
 * field has no title.
 */
export function titleOfPath(schema: RJSFSchema, property: string | undefined): string {
  const segments = (property ?? '')
    .replace(/\['([^']*)'\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const titles: string[] = [];
  let node: Node | undefined = schema as Node;
  for (const segment of segments) {
    if (/^\d+$/.test(segment) && node?.type === 'array') {
      node = node.items as Node | undefined;
      titles.push(`${titles.pop() ?? ''} ${Number(segment) + 1}`.trim());
      continue;
    }
    node = (node?.properties as Record<string, Node> | undefined)?.[segment];
    const title = typeof node?.title === 'string' ? node.title.replace(/\s*\*$/, '') : segment;
    titles.push(title);
  }
  return titles.join(' › ');
}
