/**
 * Loads Monaco from the bundle (never a CDN), with its web workers built by Vite, and configures the pipeline
 * languages once: monaco-yaml and Monaco's JSON service with the pipeline schema, and the PEL checks on top.
 * Imported only by the lazy editor components, so it lands in the editor's own chunk.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/esm/vs/editor/edcore.main';
import 'monaco-editor/esm/vs/language/json/monaco.contribution';
import 'monaco-editor/esm/vs/basic-languages/monaco.contribution';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker?worker';
import { configureMonacoYaml, type JSONSchema } from 'monaco-yaml';
import { registerPelCompletion } from './pel-completion';
import { withMarkdownDescriptions } from './schema-docs';
import { PIPELINE_URI_LANGUAGE, registerUriLanguage } from './uri-language';
import { setValidatorSchema } from './validator-client';
import { registerValidatorQuickFixes, setQuickFixSchema } from './validator-quick-fix';
import YamlWorker from './yaml.worker?worker';

export type Monaco = typeof monaco;

/** The model file names the pipeline schema applies to. */
export const PIPELINE_YAML_FILES = ['*.pi.yaml', '*.pi.yml'];
export const PIPELINE_JSON_FILES = ['*.pi.json'];
const SCHEMA_URI = 'file:///pipework/pipeline.schema.json';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === 'yaml') return new YamlWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};

loader.config({ monaco });
// The e2e tests and the benchmark read markers through the same API the editor uses.
(window as unknown as { monaco?: Monaco }).monaco = monaco;

// Our validator (in its worker) reports every problem with our messages; the schema services' generic
// ones ("Property lgo is not allowed") would show the same problem twice, so they only complete and hover.
const monacoYaml = configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  validate: false,
  completion: true,
  hover: true,
  format: { enable: true },
  schemas: [],
});
monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
  validate: false,
  allowComments: false,
  enableSchemaRequest: false,
  schemas: [],
});
registerUriLanguage(monaco);
registerValidatorQuickFixes(monaco, ['yaml', 'json', PIPELINE_URI_LANGUAGE]);
registerPelCompletion(monaco);

let appliedSchema: object | null = null;

/** Applies the pipeline schema to YAML (`*.pi.yaml`) and JSON (`*.pi.json`) models; the same object only once. */
export function applyPipelineSchema(schema: object): void {
  if (schema === appliedSchema) return;
  appliedSchema = schema;
  setValidatorSchema(schema);
  setQuickFixSchema(schema);
  const documented = withMarkdownDescriptions(schema);
  monacoYaml.update({
    schemas: [{ uri: SCHEMA_URI, fileMatch: PIPELINE_YAML_FILES, schema: documented as JSONSchema }],
  });
  monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
    validate: false,
    allowComments: false,
    enableSchemaRequest: false,
    schemas: [{ uri: SCHEMA_URI, fileMatch: PIPELINE_JSON_FILES, schema: documented }],
  });
}

export { monaco };
