/** The one-line URI form as a Monaco language: colours for commands, parameters and `#{...}`. */
import type * as Monaco from 'monaco-editor';

export const PIPELINE_URI_LANGUAGE = 'pipeline-uri';

/** The pipeline form of a Monaco language id; null for languages that are not a pipeline form. */
export function pipelineFormOf(languageId: string): 'yaml' | 'json' | 'uri' | null {
  if (languageId === 'yaml' || languageId === 'json') return languageId;
  return languageId === PIPELINE_URI_LANGUAGE ? 'uri' : null;
}

export function registerUriLanguage(monaco: typeof Monaco): void {
  monaco.languages.register({ id: PIPELINE_URI_LANGUAGE, extensions: ['.pi.uri'] });
  monaco.languages.setMonarchTokensProvider(PIPELINE_URI_LANGUAGE, {
    tokenizer: {
      root: [
        [/#\{/, { token: 'delimiter.bracket', next: '@expression' }],
        [/[|]/, 'delimiter'],
        [/[?&]/, 'delimiter'],
        [/[\w.-]+(?==)/, 'attribute.name'],
        [/[\w.-]+(?=[?|]|$)/, 'keyword'],
        [/=/, 'delimiter'],
        [/%[0-9a-fA-F]{2}/, 'string.escape'],
        [/[^#|?&=%]+/, 'string'],
      ],
      expression: [
        [/\}/, { token: 'delimiter.bracket', next: '@pop' }],
        [/'[^']*'/, 'string'],
        [/@\w+/, 'type'],
        [/[^}']+/, 'variable'],
      ],
    },
  });
}
