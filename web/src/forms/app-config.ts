/**
 * An app's form and list configurations (`<app>/form/<name>`, `<app>/list/<name>`, JSON): which one belongs
 * to an object, and what it changes. A form configuration's `layout` (the guides' nested `orientation` and
 * `items` of `{field}`) decides which fields are drawn, in which order and arrangement; a list
 * configuration's `columns` (Pipework's addition: field names or `{field, title}`) the columns, their order
 * and titles. Both may carry `title` and `description`. Pure, so it is tested without a browser.
 */
import type { ListColumn } from './form-schema';

export interface LayoutNode {
  field?: string;
  orientation?: 'vertical' | 'horizontal';
  items?: LayoutNode[];
  width?: string;
  height?: string;
  'min-width'?: string;
  'max-width'?: string;
}

export interface AppViewConfig {
  key: string;
  title?: string;
  description?: string;
  layout?: LayoutNode;
  columns?: (string | { field: string; title?: string })[];
}

type Node = Record<string, unknown>;

function parsedObject(value: unknown): Node | undefined {
  try {
    const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Node) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a configuration names the object: in its `schema`, `input` or `output` address, or by its own name. */
function names(config: Node, key: string, object: string): boolean {
  const referenced = ['schema', 'input', 'output']
    .map((k) => config[k])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => {
      try {
        return decodeURIComponent(v);
      } catch {
        return v;
      }
    });
  if (referenced.some((address) => address.includes(`${object}/`))) return true;
  if (referenced.some((address) => address.includes('/object/'))) return false;
  const objectName = object.split('/object/')[1]?.split('/')[0];
  return (
    key
      .split('/')
      .pop()
      ?.replace(/\.json$/, '') === objectName
  );
}

/** The configuration (of `form/**` or `list/**` properties) that belongs to the object, if any. */
export function configFor(
  properties: readonly { key: string; value?: unknown }[],
  object: string,
): AppViewConfig | undefined {
  for (const property of [...properties].sort((a, b) => a.key.localeCompare(b.key))) {
    const config = parsedObject(property.value);
    if (config && names(config, property.key, object)) return { ...(config as object), key: property.key };
  }
  return undefined;
}

/** The fields a layout draws, in its order (nested layouts depth first). */
export function layoutFields(layout: LayoutNode | undefined): string[] {
  const fields: string[] = [];
  const walk = (node: LayoutNode | undefined, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 20) return;
    if (typeof node.field === 'string') fields.push(node.field);
    if (Array.isArray(node.items)) for (const item of node.items) walk(item, depth + 1);
  };
  walk(layout, 0);
  return [...new Set(fields)];
}

/** A size of the configuration (`"150"` is pixels) as CSS, or undefined when it is not a plain size. */
export function cssSize(value: unknown): string | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)))
    return `${value}px`;
  return typeof value === 'string' && /^\d+(\.\d+)?(px|%|em|rem|vw)$/.test(value) ? value : undefined;
}

/** The list's columns as its configuration orders and titles them (the schema's columns when none). */
export function configuredColumns(
  schemaColumns: readonly ListColumn[],
  config: AppViewConfig | undefined,
): ListColumn[] {
  if (!Array.isArray(config?.columns)) return [...schemaColumns];
  const byField = new Map(schemaColumns.map((c) => [c.field, c]));
  const chosen: ListColumn[] = [];
  for (const entry of config.columns) {
    const field = typeof entry === 'string' ? entry : entry?.field;
    const column = typeof field === 'string' ? byField.get(field) : undefined;
    if (!column || chosen.some((c) => c.field === field)) continue;
    const title = typeof entry === 'object' && typeof entry.title === 'string' ? entry.title : column.title;
    chosen.push({ ...column, title });
  }
  return chosen.length > 0 ? chosen : [...schemaColumns];
}
