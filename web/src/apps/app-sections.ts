/** The parts of an app folder the overview shows, and how their keys are read (never its instances). */

export const APP_SECTIONS = [
  { section: 'object', label: 'Forms and lists', pattern: 'object/*/*/schema' },
  { section: 'list', label: 'List configurations', pattern: 'list/**' },
  { section: 'form', label: 'Form configurations', pattern: 'form/**' },
  { section: 'pipeline', label: 'Pipelines', pattern: 'pipeline/**' },
  { section: 'script', label: 'Scripts', pattern: 'script/**' },
  { section: 'test', label: 'Tests', pattern: 'test/**' },
  { section: 'config', label: 'Settings', pattern: 'config/**' },
] as const;

/** `global/app/x/object/order/v1/schema` → `global/app/x/object/order/v1`. */
export function objectOfSchemaKey(key: string): string {
  return key.replace(/\/schema$/, '');
}

/** The app names of a `property.keys.children global/app` answer (folders end with `/`). */
export function appNamesOf(children: readonly string[]): string[] {
  return [
    ...new Set(
      children
        .filter((c) => c.endsWith('/'))
        .map((c) => c.slice(0, -1).split('/').pop() ?? '')
        .filter(Boolean),
    ),
  ].sort();
}
