/**
 * What the pipeline itself tells completion about its scopes: the vars it declares, its headers and body.
 * Only the top-level `vars`, `headers` and `body` sections are read (not the whole pipeline), and the result is
 * kept while they do not change, so completing inside a 2,000-line pipeline costs next to nothing.
 */
import { parse as parseYaml } from 'yaml';
import type { CompletionScope } from '../../../shared/pel/complete';

const SECTIONS = /^(vars|headers|body)\s*:/;

/** The lines of the top-level `vars:`, `headers:` and `body:` sections of a YAML text, as one text. */
function yamlSections(lines: readonly string[]): string {
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    const topLevel = line !== '' && line[0] !== ' ' && line[0] !== '\t' && line[0] !== '#';
    if (topLevel) inside = SECTIONS.test(line);
    if (inside) out.push(line);
  }
  return out.join('\n');
}

/** Names under a top-level `vars:`, for when the sections do not parse yet (mid-typing). */
function yamlVarNames(sections: string): string[] {
  const names: string[] = [];
  const lines = sections.split('\n');
  const start = lines.findIndex((l) => /^vars:\s*(#.*)?$/.test(l));
  if (start < 0) return names;
  let indent = -1;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const own = line.search(/\S/);
    if (own === 0) break;
    if (indent < 0) indent = own;
    const match = own === indent ? /^\s*["']?([\p{L}_$][\p{L}\p{N}_$-]*)["']?\s*:/u.exec(line) : null;
    if (match) names.push(match[1]!);
  }
  return names;
}

function asMap(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function scopeOf(document: unknown): CompletionScope {
  const root = asMap(document) ?? {};
  return { vars: asMap(root.vars) ?? {}, headers: asMap(root.headers) ?? {}, body: root.body ?? undefined };
}

function readScope(text: string, language: 'yaml' | 'json' | 'uri'): CompletionScope {
  if (language === 'uri') return {};
  try {
    return scopeOf(language === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 }));
  } catch {
    return language === 'yaml' ? { vars: yamlVarNames(text) } : {};
  }
}

let last: { key: string; scope: CompletionScope } | null = null;

/** Sample values (or at least names) of vars, headers and body, read from the pipeline being edited. */
export function scopeOfPipeline(text: string, language: 'yaml' | 'json' | 'uri'): CompletionScope {
  return scopeOfLines(text.split('\n'), language);
}

/** The same, from the text's lines (as the editor's model gives them). */
export function scopeOfLines(lines: readonly string[], language: 'yaml' | 'json' | 'uri'): CompletionScope {
  const source = language === 'yaml' ? yamlSections(lines) : lines.join('\n');
  const key = `${language}\u0000${source}`;
  if (last?.key !== key) last = { key, scope: readScope(source, language) };
  return last.scope;
}
