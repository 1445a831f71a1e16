/** Checks one step's parameters against its command's contract without running it: names, required, static types. */
import { COMMON_PARAMETER_NAMES } from '../commands/common-parameters';
import type { CommandContract } from '../commands/contract';
import { parameterObjectSchema } from '../commands/validate-parameters';
import { checkSchema, type CheckError } from '../json-schema/check-schema';
import { didYouMean } from './did-you-mean';
import type { PipelineStep } from './model';
import type { PipelineProblem } from './problem';
import { copyPlainData } from '../values/plain-copy';

const typeSchemas = new WeakMap<CommandContract, object>();

/**
 * The schema of the type checks: the parameter object's, without `required` and closed names (unknown and
 * missing parameters are reported separately, with better messages). It is interpreted, not compiled to code,
 * so the editor's worker (whose page forbids generated code) checks types exactly as the server does.
 */
function typeSchemaOf(contract: CommandContract): object {
  let schema = typeSchemas.get(contract);
  if (!schema) {
    schema = { ...parameterObjectSchema(contract), required: [], additionalProperties: true };
    typeSchemas.set(contract, schema);
  }
  return schema;
}

/** True when a value holds a `#{...}` template anywhere, so its type is only known at run time. */
export function holdsTemplate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('#{')) return true;
    } else if (Array.isArray(item)) {
      stack.push(...item);
    } else if (item !== null && typeof item === 'object') {
      stack.push(...Object.values(item));
    }
  }
  return false;
}

function typeMessage(error: CheckError): string {
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return error.message ?? 'is invalid';
}

/** The PARAM_INVALID problems of one step whose command is known. */
export function checkParameters(step: PipelineStep, contract: CommandContract): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  const command =
    contract.name === step.command ? `'${step.command}'` : `'${step.command}' (${contract.name})`;
  const report = (parameter: string, message: string, positionKey = parameter) =>
    problems.push({
      code: 'PARAM_INVALID',
      severity: 'error',
      message,
      commandIndex: step.index,
      commandName: step.command,
      parameter,
      ...(step.paramPositions?.[positionKey] ?? step.position),
    });
  const known = [...Object.keys(contract.parameters), ...COMMON_PARAMETER_NAMES];
  const defaultName = contract.defaultParameter;
  const given = new Map<string, { value: unknown; positionKey: string }>();
  for (const [name, value] of Object.entries(step.params)) {
    // A command with open parameters (e.g. `switch`, whose names are conditions) takes any name.
    if (known.includes(name) || contract.openParameters) given.set(name, { value, positionKey: name });
    else report(name, `Unknown parameter '${name}' for command ${command}.${didYouMean(name, known)}`);
  }
  if (step.defaultValue !== undefined) {
    if (!defaultName) {
      report('', `Command ${command} has no default parameter: write its parameters by name below it.`);
    } else {
      given.set(defaultName, { value: step.defaultValue, positionKey: '' });
    }
  }
  for (const name of contract.required ?? []) {
    if (!given.has(name)) {
      problems.push({
        code: 'PARAM_INVALID',
        severity: 'error',
        message: `Missing required parameter '${name}' for command ${command}.`,
        commandIndex: step.index,
        commandName: step.command,
        parameter: name,
        ...step.position,
      });
    }
  }
  for (const group of contract.requiredOneOf ?? []) {
    if (group.some((name) => given.has(name))) continue;
    const names = group.map((name) => `'${name}'`);
    problems.push({
      code: 'PARAM_INVALID',
      severity: 'error',
      message: `Missing required parameter ${names[0]} (or ${names.slice(1).join(' or ')}) for command ${command}.`,
      commandIndex: step.index,
      commandName: step.command,
      parameter: group[0]!,
      ...step.position,
    });
  }
  const staticParams: Record<string, unknown> = {};
  for (const [name, { value }] of given) {
    if (!holdsTemplate(value)) staticParams[name] = copyPlainData(value); // coercion below changes it
  }
  // Coercion as at run time, so that a URI's "5" for an integer parameter is fine here as it is there.
  const errors = checkSchema(typeSchemaOf(contract), staticParams, { coerceTypes: true });
  if (errors.length) {
    const seen = new Set<string>();
    for (const error of errors) {
      const name = error.instancePath.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      if (name === undefined || seen.has(name)) continue;
      seen.add(name);
      const nested = error.instancePath.split('/').length > 2 ? ` (at ${error.instancePath})` : '';
      report(
        name,
        `Parameter '${name}' of command ${command} ${typeMessage(error)}${nested}.`,
        given.get(name)?.positionKey,
      );
    }
  }
  return problems;
}
