/** The step that "Insert into editor" adds: the command with its required parameters to fill in. */
import type { StepToInsert } from '../editor/insert-step';
import type { CommandDoc, ParameterDoc } from '../../../shared/commands/schema-catalog';

function placeholder(param: ParameterDoc): string {
  if (param.default !== undefined) return JSON.stringify(param.default);
  if (param.enum && param.enum.length > 0) return JSON.stringify(param.enum[0]);
  const type = param.types[0];
  if (type === 'integer' || type === 'number') return '0';
  if (type === 'boolean') return 'false';
  if (type === 'array') return '[]';
  if (type === 'object') return '{}';
  return `"<${param.name}>"`;
}

/** `  - name` when it needs nothing, else the step with each required parameter on its own line. */
export function commandSnippet(command: CommandDoc): string {
  const required = command.parameters.filter((p) => p.required);
  if (required.length === 0) return `  - ${command.name}\n`;
  const lines = required.map((p) => `      ${p.name}: ${placeholder(p)}`);
  return `  - ${command.name}:\n${lines.join('\n')}\n`;
}

/** The same step as data, for the editor to place (after the cursor's step, indented like its neighbours). */
export function commandStep(command: CommandDoc): StepToInsert {
  const required = command.parameters.filter((p) => p.required);
  return {
    command: command.name,
    params: required.map((p) => [p.name, JSON.parse(placeholder(p)) as unknown]),
  };
}
