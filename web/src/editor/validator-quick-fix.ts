/**
 * Quick fixes for our validator's markers: an unknown command or parameter is replaced by one of the nearest
 * known names, nearest first (by edit distance), never the whole list alphabetically.
 */
import type * as Monaco from 'monaco-editor';
import { commandLookupFromSchema, type SchemaCommandLookup } from '../../../shared/commands/schema-contracts';
import { COMMON_PARAMETER_NAMES } from '../../../shared/commands/common-parameters';
import { editDistance } from '../../../shared/pipeline/did-you-mean';

/** How many names a quick fix offers. */
export const QUICK_FIX_COUNT = 5;

let lookup: SchemaCommandLookup | null = null;

/** The names the fixes choose from come from the same schema the worker validates with. */
export function setQuickFixSchema(schema: unknown): void {
  lookup = commandLookupFromSchema(schema);
}

/** The `count` names nearest to `name`, nearest first; ties in name order. */
export function nearestNames(name: string, candidates: Iterable<string>, count = QUICK_FIX_COUNT): string[] {
  const lower = name.toLowerCase();
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== name)
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((x) => x.candidate);
}

function candidatesFor(marker: Monaco.editor.IMarkerData): { name: string; names: string[] } | null {
  if (!lookup) return null;
  if (marker.code === 'COMMAND_NOT_FOUND') {
    const name = /^Unknown command '([^']+)'/.exec(marker.message)?.[1];
    const names = lookup.contracts().flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    return name ? { name, names } : null;
  }
  const match = /^Unknown parameter '([^']+)' for command '([^']+)'/.exec(marker.message);
  const contract = match ? lookup.get(match[2]!)?.contract : undefined;
  if (!match || !contract) return null;
  return { name: match[1]!, names: [...Object.keys(contract.parameters), ...COMMON_PARAMETER_NAMES] };
}

export function registerValidatorQuickFixes(monaco: typeof Monaco, languages: string[]): void {
  const provider: Monaco.languages.CodeActionProvider = {
    provideCodeActions(model, _range, context) {
      const actions: Monaco.languages.CodeAction[] = [];
      for (const marker of context.markers) {
        if (marker.source !== 'Pipework') continue;
        const found = candidatesFor(marker);
        if (!found) continue;
        const line = model.getLineContent(marker.startLineNumber);
        const at = line.indexOf(found.name, marker.startColumn - 1);
        if (at === -1) continue;
        const range = new monaco.Range(
          marker.startLineNumber,
          at + 1,
          marker.startLineNumber,
          at + 1 + found.name.length,
        );
        nearestNames(found.name, found.names).forEach((name, i) =>
          actions.push({
            title: `Change to '${name}'`,
            kind: 'quickfix',
            diagnostics: [marker],
            isPreferred: i === 0,
            edit: { edits: [{ resource: model.uri, textEdit: { range, text: name }, versionId: undefined }] },
          }),
        );
      }
      return { actions, dispose() {} };
    },
  };
  for (const language of languages) monaco.languages.registerCodeActionProvider(language, provider);
}
