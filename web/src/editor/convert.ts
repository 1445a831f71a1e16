/** Switches one pipeline between its three forms (YAML, JSON, URI); pure, no Monaco. */
import { isNode, parse as parseYaml, parseDocument, stringify as stringifyYaml, visit } from 'yaml';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import type { PipelineScript } from '../../../shared/pipeline/model';
import type { PipelineForm } from './types';
import { documentToUri, type UriFormOptions } from './uri-form';

export { ConversionError } from './uri-form';
export type { UriFormOptions } from './uri-form';

/** The pipeline document of a parsed URI: its steps, in the shape YAML and JSON write them. */
function scriptDocument(script: PipelineScript): Record<string, unknown> {
  const pipeline = script.steps.map((step) => {
    if (step.defaultValue !== undefined) return { [step.command]: step.defaultValue };
    return Object.keys(step.params).length === 0 ? step.command : { [step.command]: step.params };
  });
  return { pipeline };
}

/** The document (plain data) a text holds; the shared parser runs first so faults carry line and column. */
function readDocument(text: string, form: PipelineForm): unknown {
  const script = parsePipeline(text, form);
  if (form === 'uri') return scriptDocument(script);
  if (text.trim() === '') return { pipeline: [] };
  return form === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
}

/**
 * The same pipeline in another form. Throws the shared parsers' PIPELINE_SYNTAX error (with line and column)
 * for a text that does not parse, and ConversionError for what the target form cannot hold (a URI has no
 * headers, vars or body).
 */
export function convertPipeline(
  text: string,
  from: PipelineForm,
  to: PipelineForm,
  options: UriFormOptions = {},
): string {
  if (from === to) return text;
  const document = readDocument(text, from);
  switch (to) {
    case 'json':
      return JSON.stringify(document, null, 2) + '\n';
    case 'yaml':
      return stringifyYaml(document, { lineWidth: 0 });
    case 'uri':
      return documentToUri(document, options);
  }
}

/**
 * Whether a YAML text holds a comment, which a conversion to JSON or a URI cannot keep (the workbench asks
 * before it drops them). A text that does not parse counts as without: its conversion fails anyway.
 */
export function yamlHasComments(text: string): boolean {
  if (!text.includes('#')) return false;
  const document = parseDocument(text);
  if (document.errors.length > 0) return false;
  if (document.commentBefore || document.comment) return true;
  let found = false;
  visit(document, (_key, node) => {
    if (isNode(node) && (node.commentBefore || node.comment)) {
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}
