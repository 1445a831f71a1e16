/** How a stored pipeline property maps to a document: its form from its mime type, and a first pipeline. */
import { isJsonType } from '../../../shared/property/property-value';
import type { PipelineForm } from '../editor';

export interface StoredProperty {
  key: string;
  value: string | null;
  type: string;
  version: number;
}

/** The form the server runs a stored pipeline in (`server/commands/flow/run-stored-pipeline.ts`): the same rule. */
export function formOfType(type: string): PipelineForm {
  return isJsonType(type) ? 'json' : 'yaml';
}

export const FIRST_PIPELINE = `# Each step's output is the next step's body. Run it with Ctrl+Enter.
vars:
  greeting: Hello
body:
  name: world
pipeline:
  - set.var:
      key: message
      value: "#{vars.greeting}, #{body.name}!"
  - log:
      message: "#{vars.message}"
  - set.body:
      value:
        message: "#{vars.message}"
        name: "#{body.name}"
`;
