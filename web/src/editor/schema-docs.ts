/**
 * The schema's descriptions as Markdown for hover and completion: Monaco renders them as Markdown, where the
 * schema's `<format>` placeholders would vanish as unknown HTML tags. Pure; the server's schema is not changed.
 */

function escapeMarkdown(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A copy of a JSON schema with a `markdownDescription` next to every `description` that needs escaping. */
export function withMarkdownDescriptions<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withMarkdownDescriptions) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withMarkdownDescriptions(value);
  const description = out.description;
  if (typeof description === 'string' && /[<>&]/.test(description) && out.markdownDescription === undefined)
    out.markdownDescription = escapeMarkdown(description);
  return out as T;
}
