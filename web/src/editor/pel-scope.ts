/** What the pipeline itself tells completion about its scopes: the vars it declares, its headers and body. */
import type { CompletionScope } from '../../../shared/pel/complete';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';

/** Names under a top-level `vars:` of a YAML text, for when the text does not parse yet (mid-typing). */
function yamlVarNames(lines: readonly string[]): string[] {
  const names: string[] = [];
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

/** Sample values (or at least names) of vars, headers and body, read from the pipeline being edited. */
export function scopeOfPipeline(text: string, language: 'yaml' | 'json' | 'uri'): CompletionScope {
  try {
    const script = parsePipeline(text, language);
    return { vars: script.vars, headers: script.headers, body: script.body ?? undefined };
  } catch {
    return language === 'yaml' ? { vars: yamlVarNames(text.split('\n')) } : {};
  }
}
