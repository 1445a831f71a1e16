/** How a stored pipeline property maps to a document: its form from its mime type, and a first pipeline. */
import type { PipelineForm } from '../editor';

export interface StoredProperty {
  key: string;
  value: string | null;
  type: string;
  version: number;
}

export function formOfType(type: string): PipelineForm {
  if (/json/i.test(type)) return 'json';
  if (/^text\/plain/i.test(type)) return 'uri';
  return 'yaml';
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
