import { describe, expect, it } from 'vitest';
import { parsePipelineYaml } from './index';
import { caught, lines } from './test-helpers';

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

describe('parsePipelineYaml: errors carry line and column', () => {
  it.each([
    [
      'a duplicate key',
      lines('pipeline:', '  - log:', '      a: 1', '      a: 2'),
      "Duplicate key 'a'",
      4,
      7,
    ],
    ['a duplicate section', lines('pipeline: [log]', 'pipeline: [log]'), "Duplicate key 'pipeline'", 2, 1],
    [
      'an unclosed quote',
      lines('pipeline:', '  - log:', '      message: "open', '  - datetime'),
      'Missing closing " of the string',
      3,
      16,
    ],
    ['an unclosed flow map', lines('pipeline:', '  - log: {a: 1'), 'Flow map', 3, 1],
    ['a tab as indentation', lines('pipeline:', '\t- log'), 'Tabs are not allowed', 2, 1],
    ['two documents', lines('pipeline: [log]', '---', 'pipeline: [log]'), 'multiple documents', 2, 1],
    ['an unknown section', lines('pipeline: [log]', 'steps: [log]'), "Unknown section 'steps'", 2, 1],
    ['an empty pipeline', lines('pipeline: []'), "Section 'pipeline' is empty", 1, 1],
    ['a missing pipeline', lines('vars: {a: 1}'), "Section 'pipeline' is missing", 1, 1],
    ['an empty document', lines('# nothing'), 'The script is empty', 1, 1],
    ['a list at the top', lines('- log'), 'must be a map with the sections', 1, 1],
    ['pipeline not a list', lines('pipeline: log'), "Section 'pipeline' must be a list", 1, 11],
    ['vars not a map', lines('vars: [1]', 'pipeline: [log]'), "Section 'vars' must be a map", 1, 7],
    [
      'a header that is a map',
      lines('headers:', '  a: {b: 1}', 'pipeline: [log]'),
      "Header 'a' must be a text value",
      2,
      6,
    ],
    [
      'an item with two keys',
      lines('pipeline:', '  - datetime', '  - log:', '    message: x'),
      'Pipeline item 2 must have exactly one key',
      3,
      5,
    ],
    ['an item that is a number', lines('pipeline:', '  - 5'), 'Pipeline item 1 must be a command name', 2, 5],
    ['an empty item', lines('pipeline:', '  - log', '  -'), 'Pipeline item 2 must be a command name', 3, 4],
    [
      'a camel-case name',
      lines('pipeline:', '  - sendMail: {to: x}'),
      "Invalid command name 'sendMail'",
      2,
      5,
    ],
    [
      'a name with an underscore',
      lines('pipeline:', '  - log', '  - my_cmd'),
      "Invalid command name 'my_cmd'",
      3,
      5,
    ],
    [
      'a complex key',
      lines('pipeline:', '  - log:', '      ? [a]', '      : 1'),
      'A key must be a name',
      3,
      9,
    ],
    ['an unknown alias', lines('pipeline:', '  - log: {message: *nope}'), 'Unresolved alias', 2, 20],
  ])('%s', (_, source, message, line, column) => {
    const error = caught(() => parsePipelineYaml(source));
    expect(error).toMatchObject({ code: 'PIPELINE_SYNTAX', line, column });
    expect(error.message).toContain(message);
    expect(error.message).toContain(`at ${line}:${column}`);
  });
});
