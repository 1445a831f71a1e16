/** Which Monaco language shows a value of a given mime type. */

const EXACT: Record<string, string> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/html': 'html',
  'text/css': 'css',
  'text/csv': 'plaintext',
  'text/markdown': 'markdown',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/typescript': 'typescript',
  'application/sql': 'sql',
  'text/x-sql': 'sql',
  'application/x-sh': 'shell',
  'text/x-python': 'python',
};

/**
 * The Monaco language id for a mime type (parameters such as charset ignored): structured suffixes such as
 * `application/vnd.x+json` or `application/pipeline+yaml` count as their base; anything unknown is plaintext.
 */
export function languageForMime(mime: string): string {
  const type = (mime ?? '').split(';')[0]!.trim().toLowerCase();
  if (EXACT[type]) return EXACT[type];
  if (type.endsWith('+json') || type.endsWith('/json')) return 'json';
  if (type.endsWith('+yaml') || type.endsWith('/yaml')) return 'yaml';
  if (type.endsWith('+xml')) return 'xml';
  return 'plaintext';
}
