import { describe, expect, it } from 'vitest';
import { parsePipelineYaml } from './index';
import { lines } from './test-helpers';

describe('parsePipelineYaml: item forms', () => {
  it.each([
    ['a bare name', '  - log', { command: 'log', params: {} }],
    ['a name with a null value', '  - log:', { command: 'log', params: {} }],
    [
      'a name with a scalar (default value)',
      '  - log: hello',
      { command: 'log', params: {}, defaultValue: 'hello' },
    ],
    ['a name with a number', '  - wait: 5', { command: 'wait', params: {}, defaultValue: 5 }],
    ['a name with a list', '  - set: [1, two]', { command: 'set', params: {}, defaultValue: [1, 'two'] }],
    ['a name with a flow map', '  - log: {message: hi}', { command: 'log', params: { message: 'hi' } }],
    [
      'a dotted name',
      '  - property.schema.put: {key: a}',
      { command: 'property.schema.put', params: { key: 'a' } },
    ],
  ])('%s', (_, item, expected) => {
    const [step] = parsePipelineYaml(lines('pipeline:', item)).steps;
    expect(step).toMatchObject({ index: 0, ...expected });
    if (!('defaultValue' in expected)) expect(step!.defaultValue).toBeUndefined();
  });

  it('reads parameters as a map below the name', () => {
    const script = parsePipelineYaml(
      lines(
        'pipeline:',
        '  - mail.send:',
        '      to: a@b.c',
        '      subject: Hi',
        '      retries: 2',
        '      urgent: true',
      ),
    );
    expect(script.steps[0]!.params).toEqual({ to: 'a@b.c', subject: 'Hi', retries: 2, urgent: true });
  });

  it("reads foreach's deprecated `end` parameter alone as foreach.end (the email guide's form)", () => {
    const script = parsePipelineYaml(
      lines(
        'pipeline:',
        '  - foreach:',
        '      in: "#{vars.xs}"',
        '  - log: hi',
        '  - foreach:',
        '      end:',
      ),
    );
    expect(script.steps.map((s) => [s.command, s.params])).toEqual([
      ['foreach', { in: '#{vars.xs}' }],
      ['log', {}],
      ['foreach.end', {}],
    ]);
    // With other parameters it stays a foreach (and the validator names what is wrong).
    const other = parsePipelineYaml(lines('pipeline:', '  - foreach:', '      end: x', '      in: y'));
    expect(other.steps[0]!.command).toBe('foreach');
  });
});

describe('parsePipelineYaml: values as YAML writes them', () => {
  const script = parsePipelineYaml(
    lines(
      'pipeline:',
      '  - log:',
      '      plain: unquoted text',
      "      single: 'it''s #{body}'",
      '      double: "tab\\tand \\u00e9"',
      '      folded: this is',
      '        one line',
      '      literal: |',
      '        line one',
      '          indented',
      '      folded2: >',
      '        joined',
      '        text',
      '      json: {"a": [1, 2.5, null], "b": {"c": true}}',
      '      quotedMulti: "a',
      '        b"',
    ),
  );
  it.each([
    ['plain', 'unquoted text'],
    ['single', "it's #{body}"],
    ['double', 'tab\tand é'],
    ['folded', 'this is one line'],
    ['literal', 'line one\n  indented\n'],
    ['folded2', 'joined text\n'],
    ['json', { a: [1, 2.5, null], b: { c: true } }],
    ['quotedMulti', 'a b'],
  ])('%s', (name, value) => {
    expect(script.steps[0]!.params[name]).toEqual(value);
  });

  it('keeps YAML 1.2 core types (yes/no stay strings) and known 1.1 tags as text', () => {
    const [step] = parsePipelineYaml(
      lines('pipeline:', '  - log: {a: yes, b: 0o10, c: ~, d: !!binary aGk=}'),
    ).steps;
    expect(step!.params).toEqual({ a: 'yes', b: 8, c: null, d: 'aGk=' });
  });

  it('resolves small aliases', () => {
    const script = parsePipelineYaml(
      lines('vars:', '  v: &cfg {x: 1}', 'pipeline:', '  - log: {message: *cfg}', '  - log: *cfg'),
    );
    expect(script.steps.map((s) => s.params)).toEqual([{ message: { x: 1 } }, { x: 1 }]);
  });

  it('keeps __proto__ as an ordinary key', () => {
    const script = parsePipelineYaml(lines('vars:', '  __proto__: {polluted: 1}', 'pipeline: [log]'));
    expect(Object.keys(script.vars)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads headers, vars and body', () => {
    const script = parsePipelineYaml(
      lines(
        'headers:',
        '  name: x',
        '  retries: 3',
        'vars:',
        '  list: [1]',
        'pipeline: [log]',
        'body: |',
        '  text',
      ),
    );
    expect(script).toMatchObject({ headers: { name: 'x', retries: 3 }, vars: { list: [1] }, body: 'text\n' });
    expect(parsePipelineYaml('pipeline: [log]').body).toBeNull();
  });
});

describe('parsePipelineYaml: positions', () => {
  const script = parsePipelineYaml(
    lines(
      'headers:', //                1
      '  description: "d"', //     2
      'vars:', //                   3
      '  n: 1', //                  4
      'pipeline:', //               5
      '  - datetime', //            6
      '  - log: hello', //          7
      '  - mail.send:', //          8
      '      to: a@b.c', //         9
      '      subject:', //         10
      '      message: |', //       11
      '        text', //           12
      'body: {"x": 1}', //         13
    ),
  );
  it('of command names', () => {
    expect(script.steps.map((s) => s.position)).toEqual([
      { line: 6, column: 5 },
      { line: 7, column: 5 },
      { line: 8, column: 5 },
    ]);
  });
  it('of parameter values, the default value under ""', () => {
    expect(script.steps[1]!.paramPositions).toEqual({ '': { line: 7, column: 10 } });
    expect(script.steps[2]!.paramPositions).toEqual({
      to: { line: 9, column: 11 },
      subject: { line: 10, column: 7 }, // an empty value points at its key
      message: { line: 11, column: 16 },
    });
  });
  it('of sections', () => {
    expect(script.sectionPositions).toEqual({
      headers: { description: { line: 2, column: 16 } },
      vars: { n: { line: 4, column: 6 } },
      body: { line: 13, column: 7 },
    });
  });
});

// Errors with their line and column: cases/syntax-errors.json (run by cases.test.ts).

describe('parsePipelineYaml: a command with a version suffix', () => {
  it('reads log:v3 as log, with its parameters and their positions', () => {
    const script = parsePipelineYaml('pipeline:\n  - log:v3:\n      message: hi\n  - log:v12: hello\n');
    expect(script.steps.map((s) => s.command)).toEqual(['log', 'log']);
    expect(script.steps[0]!.params).toEqual({ message: 'hi' });
    expect(script.steps[0]!.paramPositions?.message).toMatchObject({ line: 3 });
    expect(script.steps[1]!.defaultValue).toBe('hello');
  });

  it.each(['log:v0', 'log:x1', 'log:v1:v2', 'log:'])('refuses %s', (name) => {
    expect(() => parsePipelineYaml(`pipeline:\n  - ${name}:\n      message: hi\n`)).toThrow(
      /Invalid command name/,
    );
  });
});
