/** What the search box means: a wildcard pattern as typed, or plain text found inside the last segment. */

export function searchPattern(text: string): string | null {
  const trimmed = text.trim().replace(/^\/+/, '');
  if (trimmed === '') return null;
  if (trimmed.includes('*')) return trimmed;
  // Plain text: keys whose last segment contains it (segment characters only; anything else is no match).
  return /^[A-Za-z0-9._-]+$/.test(trimmed) ? `**/*${trimmed}*` : trimmed;
}
