/** Completion inside `#{...}` of pipeline values: roots, declared vars, body fields, methods, utilities. */
import type * as Monaco from 'monaco-editor';
import { complete, type CompletionKind } from '../../../shared/pel/complete';
import { scanOfModel } from './model-scan';
import { positionInScalar, scalarAmong } from './pel-locate';
import { scopeOfLines } from './pel-scope';
import { PIPELINE_URI_LANGUAGE, pipelineFormOf } from './uri-language';

function kindOf(monaco: typeof Monaco, kind: CompletionKind): Monaco.languages.CompletionItemKind {
  const k = monaco.languages.CompletionItemKind;
  const kinds: Record<CompletionKind, Monaco.languages.CompletionItemKind> = {
    root: k.Module,
    variable: k.Variable,
    field: k.Field,
    method: k.Method,
    utility: k.Class,
    function: k.Function,
    keyword: k.Keyword,
  };
  return kinds[kind];
}

/** Registers the PEL completion provider for YAML and JSON models (once, at setup). */
export function registerPelCompletion(monaco: typeof Monaco): void {
  const provider: Monaco.languages.CompletionItemProvider = {
    triggerCharacters: ['{', '.', '@', '#'],
    provideCompletionItems(model, position) {
      const language = pipelineFormOf(model.getLanguageId());
      if (!language) return { suggestions: [] };
      const { lines, scan } = scanOfModel(model, language);
      const found = scalarAmong(scan.scalars, { line: position.lineNumber, column: position.column });
      if (!found) return { suggestions: [] };
      const { scalar, offset } = found;
      const scope = scopeOfLines(lines, language);
      const result = complete(scalar.value, offset, scope, 'template');
      if (result.items.length === 0) return { suggestions: [] };
      const from = positionInScalar(scalar, result.from);
      const to = positionInScalar(scalar, result.to);
      const range = new monaco.Range(from.line, from.column, to.line, to.column);
      return {
        suggestions: result.items.map((item, index) => ({
          label: { label: item.label, description: item.detail },
          kind: kindOf(monaco, item.kind),
          detail: item.detail,
          documentation: item.documentation,
          insertText: item.insertText,
          filterText: item.label.replace(/^@/, ''),
          sortText: String(index).padStart(4, '0'),
          range,
          // After `@date.` the functions follow: open the list again at once.
          command: item.insertText.endsWith('.')
            ? { id: 'editor.action.triggerSuggest', title: 'Suggest' }
            : undefined,
        })),
      };
    },
  };
  monaco.languages.registerCompletionItemProvider('yaml', provider);
  monaco.languages.registerCompletionItemProvider('json', provider);
  monaco.languages.registerCompletionItemProvider(PIPELINE_URI_LANGUAGE, provider);
}
