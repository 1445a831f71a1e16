/** `data.mapping`: builds a new structure from the input by rules `source -> target`, one per line. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { evaluateIn, unwrap } from './evaluate-in-context';
import { parseTargetPath, writeAtPath } from './target-path';

export interface MappingRule {
  source: string;
  target: (string | number)[];
  line: number;
}

/** One rule per line (`source -> target`), a trailing comma allowed; blank lines skipped. */
export function parseMappingRules(text: string): MappingRule[] {
  const rules: MappingRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim().replace(/,$/, '').trim();
    if (line === '') return;
    const arrow = line.lastIndexOf('->');
    const source = arrow > 0 ? line.slice(0, arrow).trim() : '';
    const target = arrow > 0 ? line.slice(arrow + 2).trim() : '';
    if (source === '' || target === '') {
      throw new PipeworkError('PARAM_INVALID', `Mapping rule '${line}' must read 'source -> target'.`, {
        parameter: 'rules',
        ruleLine: index + 1,
      });
    }
    rules.push({ source: unwrap(source), target: parseTargetPath(target), line: index + 1 });
  });
  if (rules.length === 0) {
    throw new PipeworkError('PARAM_INVALID', 'data.mapping needs at least one rule.', { parameter: 'rules' });
  }
  return rules;
}

/**
 * The input as the reference's tutorial gives it: JSON written as text (`input: |` with a JSON document) is
 * mapped as that document; other text stays text.
 */
function jsonOfText(input: unknown): unknown {
  if (typeof input !== 'string' || !/^\s*[[{]/.test(input)) return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function mapOne(ctx: CommandContext, rules: MappingRule[], item: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const rule of rules) {
    let value: unknown;
    try {
      value = evaluateIn(ctx, item, rule.source, 'rules');
    } catch (error) {
      if (error instanceof PipeworkError) throw error.withDetails({ ruleLine: rule.line });
      throw error;
    }
    writeAtPath(result, rule.target, value);
  }
  return result;
}

export const dataMapping = defineCommand(
  {
    name: 'data.mapping',
    summary: 'Builds a new structure from the input by mapping rules `source -> target`, one per line.',
    description:
      'Each rule reads a PEL expression inside the input (its fields are names: `firstName`, `age > 17`; body, vars and headers stay reachable) and writes the value at the target path of the result (`customer.name`, `lines[0].id`), creating nested maps and lists. JSON written as text (e.g. in `input: |`) is mapped as that document. With `iterate: true` the input is a list and each item is mapped. The result goes to the body or to `output`.',
    parameters: {
      rules: {
        type: 'string',
        description: 'One rule per line: `sourceExpression -> target.path` (a trailing comma is allowed).',
      },
      iterate: {
        type: 'boolean',
        default: false,
        description: 'Maps each item of the input list, giving a list.',
      },
    },
    required: ['rules'],
    defaultParameter: 'rules',
    rawParameters: ['rules'],
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'CRM customer to ERP customer',
        pipeline:
          "body: {firstName: Sam, lastName: Smith, age: 34}\npipeline:\n  - data.mapping:\n      rules: |\n        firstName + ' ' + lastName -> customer.name\n        age -> customer.age\n        age >= 18 -> customer.isLegalAge\n",
      },
    ],
  },
  (ctx) => {
    const rules = parseMappingRules(String(ctx.params.rules));
    const input = jsonOfText(ctx.input);
    if (ctx.params.iterate === true) {
      if (!Array.isArray(input)) {
        throw new PipeworkError('PARAM_INVALID', 'data.mapping with iterate: true needs a list as input.', {
          parameter: 'iterate',
        });
      }
      return input.map((item) => mapOne(ctx, rules, item));
    }
    return mapOne(ctx, rules, input);
  },
);
