/** The pipeline schema from the server, fetched once per page and shared by every editor. */

export const SCHEMA_PATH = '/api/v3/command:pipe.schema.v7';

let pending: Promise<object> | null = null;

async function fetchPublicSchema(): Promise<object> {
  const response = await fetch(SCHEMA_PATH, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  if (!response.ok) throw new Error(`The pipeline schema could not be loaded (HTTP ${response.status}).`);
  return (await response.json()) as object;
}

/** The schema, fetched with `fetchSchema` (e.g. with the session's token) or from the public endpoint. */
export function loadPipelineSchema(fetchSchema?: () => Promise<object>): Promise<object> {
  pending ??= (fetchSchema ?? fetchPublicSchema)().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** The default parameter of each command, read from the schema's "Short form: - name: <param>." note. */
export function defaultParameters(schema: object): Map<string, string> {
  const out = new Map<string, string>();
  const items = (
    schema as { properties?: { pipeline?: { items?: { properties?: Record<string, unknown> } } } }
  ).properties?.pipeline?.items?.properties;
  for (const [name, entry] of Object.entries(items ?? {})) {
    const description = (entry as { description?: unknown }).description;
    const match = typeof description === 'string' ? /Short form: - \S+: <([^>]+)>/.exec(description) : null;
    if (match) out.set(name, match[1]!);
  }
  return out;
}
