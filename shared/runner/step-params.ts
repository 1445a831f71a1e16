/** Reading a step's parameters before evaluation: the short form's value goes to the default parameter. */
import type { CommandContract } from '../commands/contract';
import { PipeworkError } from '../errors';
import type { PipelineStep } from '../pipeline/model';
import { stepDetails } from './step-details';

/** The step's parameters as written, with `- name: value` under the contract's default parameter. */
export function collectParams(step: PipelineStep, contract: CommandContract): Record<string, unknown> {
  const params: Record<string, unknown> = { ...step.params };
  if (step.defaultValue === undefined) return params;
  const name = contract.defaultParameter;
  const fail = (message: string) =>
    new PipeworkError('PARAM_INVALID', message, { parameter: name, ...stepDetails(step) });
  if (!name) throw fail(`Command '${step.command}' has no default parameter: write its parameters by name.`);
  if (name in params) throw fail(`Parameter '${name}' of '${step.command}' is given twice.`);
  params[name] = step.defaultValue;
  return params;
}

/** A `foreach` element: lists give their items, maps `{key, value}` entries, a single value itself. */
export interface LoopEntry {
  item: unknown;
  key?: string;
}

export function loopEntries(items: unknown): LoopEntry[] {
  if (Array.isArray(items)) return items.map((item) => ({ item }));
  if (items === null || items === undefined) return [];
  if (typeof items === 'object') {
    return Object.entries(items).map(([key, value]) => ({ item: { key, value }, key }));
  }
  // A text with commas is a list of its trimmed parts, as the real product reads "biking, swimming, hiking".
  if (typeof items === 'string' && items.includes(','))
    return items.split(',').map((item) => ({ item: item.trim() }));
  return [{ item: items }];
}
