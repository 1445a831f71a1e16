import { describe, expect, it } from 'vitest';
import { defineCommand } from '../commands/command-definition';
import type { CommandContract } from '../commands/contract';
import { CommandRegistry } from '../commands/registry';
import { PipeworkError } from '../errors';
import { validatePipeline, type ExpressionChecker, type PipelineSourceKind } from './index';

const command = (contract: Partial<CommandContract> & { name: string }) =>
  defineCommand(
    { summary: contract.name, parameters: {}, input: 'any', output: 'any', ...contract },
    () => null,
  );

const registry = new CommandRegistry([
  command({
    name: 'log',
    parameters: { message: { type: 'string' }, level: { type: 'string', enum: ['INFO', 'WARN'] } },
    defaultParameter: 'message',
  }),
  command({ name: 'datetime', parameters: { format: { type: 'string' } } }),
  command({
    name: 'mail.send',
    aliases: ['send.mail'],
    parameters: { to: { type: ['string', 'array'] }, subject: { type: 'string' } },
    required: ['to'],
  }),
  command({
    name: 'wait',
    parameters: { seconds: { type: 'integer', minimum: 0 } },
    required: ['seconds'],
    defaultParameter: 'seconds',
  }),
  command({
    name: 'test',
    parameters: { assertion: { type: 'string' } },
    defaultParameter: 'assertion',
    rawParameters: ['assertion'],
  }),
  command({ name: 'if', parameters: { condition: {} }, defaultParameter: 'condition', controlFlow: 'if' }),
  command({ name: 'if.else', controlFlow: 'if.else' }),
  command({ name: 'if.end', controlFlow: 'if.end' }),
  command({ name: 'foreach', parameters: { items: {} }, defaultParameter: 'items', controlFlow: 'foreach' }),
  command({ name: 'foreach.end', controlFlow: 'foreach.end' }),
]);

/** A stand-in for PEL's compileTemplate: flags a `#{` that is never closed. */
const unclosedTemplate: ExpressionChecker = (template) => {
  const open: number[] = [];
  for (let i = 0; i < template.length; i++) {
    if (template.startsWith('#{', i)) open.push(i++);
    else if (template[i] === '}') open.pop();
  }
  const offset = open.pop();
  return offset === undefined ? null : { message: `Unclosed '#{' at offset ${offset}.`, offset };
};

const validate = (text: string, kind: PipelineSourceKind = 'yaml') =>
  validatePipeline(text, kind, registry, { checkExpression: unclosedTemplate });
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('validatePipeline', () => {
  it('finds nothing wrong in a good pipeline, in every form', () => {
    const good = yaml(
      'headers:',
      '  description: "#{1}"',
      'vars:',
      '  n: 2',
      'pipeline:',
      '  - datetime: {format: yyyy}',
      '  - log: hello',
      '  - send.mail: {to: [a@b.c], subject: "#{vars.n}", if: "#{true}", output: "#{vars.x}"}',
      '  - wait: "#{vars.n}"',
      '  - if: "#{true}"',
      '  - foreach: [1, 2]',
      '  - log',
      '  - foreach.end',
      '  - if.else',
      '  - if',
    );
    expect(validate(good)).toEqual([]);
    expect(validate('{"pipeline": [{"wait": 5}, {"log": {"message": "#{body}"}}]}', 'json')).toEqual([]);
    expect(validate('wait?seconds=5|log?message=%23%7Bbody%7D', 'uri')).toEqual([]);
  });

  it('reports a parse error alone, with its place', () => {
    expect(validate(yaml('pipeline:', '  - log: {a: 1, a: 2}', '  - nope'))).toEqual([
      {
        code: 'PIPELINE_SYNTAX',
        severity: 'error',
        message: "Duplicate key 'a' at 2:17.",
        line: 2,
        column: 17,
      },
    ]);
    expect(validate('{"pipeline": [}', 'json')).toMatchObject([
      { code: 'PIPELINE_SYNTAX', line: 1, column: 15 },
    ]);
  });

  it.each([
    ['a misspelt command', '  - lgo', "Unknown command 'lgo'. Did you mean 'log'?"],
    ['a misspelt alias', '  - send.mial: {to: x}', "Unknown command 'send.mial'. Did you mean 'send.mail'?"],
    ['a command far from any', '  - property.frobnicate', "Unknown command 'property.frobnicate'."],
  ])('reports %s with a suggestion when one is close', (_, item, message) => {
    expect(validate(yaml('pipeline:', '  - datetime', item))).toEqual([
      {
        code: 'COMMAND_NOT_FOUND',
        severity: 'error',
        message,
        line: 3,
        column: 5,
        commandIndex: 1,
        commandName: message.split("'")[1],
      },
    ]);
  });

  it.each([
    [
      'an unknown parameter',
      ['  - log:', '      mesage: hi'],
      "Unknown parameter 'mesage' for command 'log'. Did you mean 'message'?",
      3,
      15,
      'mesage',
    ],
    [
      'a missing required parameter',
      ['  - mail.send:', '      subject: hi'],
      "Missing required parameter 'to' for command 'mail.send'.",
      2,
      5,
      'to',
    ],
    [
      'a static value of the wrong type',
      ['  - wait:', '      seconds: soon'],
      "Parameter 'seconds' of command 'wait' must be integer.",
      3,
      16,
      'seconds',
    ],
    [
      'a default value of the wrong type',
      ['  - wait: [1]'],
      "Parameter 'seconds' of command 'wait' must be integer.",
      2,
      11,
      'seconds',
    ],
    [
      'a value out of range',
      ['  - wait: {seconds: -1}'],
      "Parameter 'seconds' of command 'wait' must be >= 0.",
      2,
      21,
      'seconds',
    ],
    [
      'a value not in the enum',
      ['  - log: {level: LOUD}'],
      'Parameter \'level\' of command \'log\' must be one of "INFO", "WARN".',
      2,
      18,
      'level',
    ],
    [
      'a wrong common parameter',
      ['  - log: {output: [1]}'],
      "Parameter 'output' of command 'log' must be string.",
      2,
      19,
      'output',
    ],
    [
      'a default for a command without one',
      ['  - datetime: yyyy'],
      "Command 'datetime' has no default parameter: write its parameters by name below it.",
      2,
      15,
      '',
    ],
  ])('reports %s', (_, items, message, line, column, parameter) => {
    const problems = validate(yaml('pipeline:', ...(items as string[])));
    expect(problems).toEqual([
      {
        code: 'PARAM_INVALID',
        severity: 'error',
        message,
        line,
        column,
        commandIndex: 0,
        commandName: message.match(/ommand '([^']+)'/)![1],
        parameter,
      },
    ]);
  });

  it('accepts the default value for a required default parameter', () => {
    expect(validate(yaml('pipeline:', '  - wait: 5'))).toEqual([]);
    expect(validate('{"pipeline": [{"wait": {"seconds": 1}}]}', 'json')).toEqual([]);
    expect(validatePipeline(yaml('pipeline:', '  - wait: 5'), 'yaml', registry)).toEqual([]);
  });

  it('coerces URI text as the run does, and checks what cannot be coerced', () => {
    expect(validate('wait?seconds=5', 'uri')).toEqual([]);
    expect(validate('log|wait?seconds=soon', 'uri')).toMatchObject([
      { code: 'PARAM_INVALID', parameter: 'seconds', line: 1, column: 18, commandIndex: 1 },
    ]);
  });

  it('skips the type check of templates, known only at run time', () => {
    expect(
      validate(yaml('pipeline:', '  - wait: {seconds: "#{vars.n}"}', '  - log: {level: "#{vars.l}"}')),
    ).toEqual([]);
  });

  it('reports expression syntax at its exact place in parameters, values, headers and vars', () => {
    const problems = validate(
      yaml(
        'headers:',
        '  h: "ok #{x"',
        'vars:',
        '  v: {deep: ["#{y"]}',
        'pipeline:',
        '  - log:',
        '      message: |',
        '        first line',
        '        second #{body',
        '  - log: "#{z"',
        '  - mail.send: {to: ["#{a}", "#{b"]}',
        '  - test: "#{raw is not checked"',
      ),
    );
    expect(
      problems.map(({ code, line, column, parameter, commandIndex }) => ({
        code,
        line,
        column,
        parameter,
        commandIndex,
      })),
    ).toEqual([
      { code: 'PEL_SYNTAX', line: 2, column: 10, parameter: undefined, commandIndex: undefined },
      { code: 'PEL_SYNTAX', line: 4, column: 6, parameter: undefined, commandIndex: undefined },
      { code: 'PEL_SYNTAX', line: 9, column: 16, parameter: 'message', commandIndex: 0 },
      { code: 'PEL_SYNTAX', line: 10, column: 11, parameter: undefined, commandIndex: 1 },
      { code: 'PEL_SYNTAX', line: 11, column: 21, parameter: 'to', commandIndex: 2 },
    ]);
    expect(problems[0]!.message).toBe("In headers 'h': Unclosed '#{' at offset 3.");
    expect(problems[2]!.message).toBe("In parameter 'message' of 'log': Unclosed '#{' at offset 18.");
  });

  it('accepts a checker that throws a PipeworkError with an offset', () => {
    const throwing = (template: string) => {
      const offset = template.indexOf('#{!');
      if (offset >= 0) throw new PipeworkError('PEL_SYNTAX', 'Bad token', { offset: offset + 2 });
      return null;
    };
    expect(
      validatePipeline('log?message=ab#{!x}', 'uri', registry, { checkExpression: throwing }),
    ).toMatchObject([
      { code: 'PEL_SYNTAX', message: "In parameter 'message' of 'log': Bad token", line: 1, column: 17 },
    ]);
  });

  it.each([
    ['if.else without an if', ['log', 'if.else'], ["'if.else' at 3:5 has no open 'if' before it."]],
    ['if.end without an if', ['if.end'], ["'if.end' at 2:5 has no open 'if' before it."]],
    [
      'foreach.end without a foreach',
      ['if', 'foreach.end'],
      ["'foreach.end' at 3:5 has no open 'foreach' before it."],
    ],
    [
      'a second if.else',
      ['if', 'if.else', 'if.else'],
      ["'if.else' at 4:5 is a second 'if.else' for the 'if' at 2:5."],
    ],
    [
      'interleaved blocks',
      ['if', 'foreach', 'if.end', 'foreach.end'],
      [
        "'if.end' at 4:5 closes the 'if' at 2:5 while the 'foreach' at 3:5 inside it is still open: blocks must nest.",
        "'foreach.end' at 5:5 has no open 'foreach' before it.",
      ],
    ],
  ])('reports %s', (_, names, messages) => {
    const problems = validate(yaml('pipeline:', ...names.map((n) => `  - ${n}`)));
    expect(problems.map((p) => p.message)).toEqual(messages);
    expect(
      problems.every((p) => p.code === 'PIPELINE_SYNTAX' && p.line !== undefined && p.column === 5),
    ).toBe(true);
  });

  it('leaves blocks without their end alone (they run to the end)', () => {
    expect(validate(yaml('pipeline:', '  - if', '  - foreach', '  - log'))).toEqual([]);
  });

  it('warns of a YAML value that an unquoted #{ turned into a comment', () => {
    const problems = validate(
      yaml('vars:', '  v: #{1}', 'pipeline:', '  - log: #{body}', '  - log:', '      message: #{body}'),
    );
    expect(
      problems.map(({ severity, line, column, parameter }) => ({ severity, line, column, parameter })),
    ).toEqual([
      { severity: 'warning', line: 2, column: 3, parameter: undefined },
      { severity: 'warning', line: 4, column: 5, parameter: undefined },
      { severity: 'warning', line: 6, column: 7, parameter: 'message' },
    ]);
    expect(problems[2]!.message).toBe(
      "Parameter 'message' of 'log' is empty: in YAML, ' #' starts a comment. Quote a value that starts with #{, e.g. \"#{body}\".",
    );
    expect(
      validate(yaml('pipeline:', '  - log:', '      message: "#{body}"', '  - log # a comment')),
    ).toEqual([]);
  });

  it('lists several problems sorted by place', () => {
    const problems = validate(
      yaml('pipeline:', '  - nope', '  - log: {x: 1}', '  - if.end', '  - mail.send'),
    );
    expect(problems.map((p) => [p.code, p.line])).toEqual([
      ['COMMAND_NOT_FOUND', 2],
      ['PARAM_INVALID', 3],
      ['PIPELINE_SYNTAX', 4],
      ['PARAM_INVALID', 5],
    ]);
  });
});
