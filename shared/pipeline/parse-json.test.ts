import { describe, expect, it } from 'vitest';
import { parsePipelineJson } from './index';
import { caught } from './test-helpers';

describe('parsePipelineJson', () => {
  it('reads every item form', () => {
    const script = parsePipelineJson(
      '{"pipeline": ["datetime", {"log": "hi"}, {"log": null}, {"log": {"message": "x", "n": 2}}]}',
    );
    expect(script.steps.map(({ command, params, defaultValue }) => ({ command, params, defaultValue }))).toEqual([
      { command: 'datetime', params: {}, defaultValue: undefined },
      { command: 'log', params: {}, defaultValue: 'hi' },
      { command: 'log', params: {}, defaultValue: undefined },
      { command: 'log', params: { message: 'x', n: 2 }, defaultValue: undefined },
    ]);
  });

  it.each([
    ['unicode escapes', '"\\ud83d\\ude00 \\u00e9 \\n \\/"'],
    ['a negative zero', '-0'],
    ['an exponent past the double range', '1e400'],
    ['a big integer', '123456789012345678901234567890'],
    ['nested data', '{"a": [1, {"b": [true, false, null]}], "": ""}'],
  ])('gives exactly what JSON.parse gives for %s', (_, body) => {
    const text = `{"pipeline": ["log"], "body": ${body}}`;
    expect(Object.is(parsePipelineJson(text).body, JSON.parse(body))).toBe(typeof JSON.parse(body) !== 'object');
    expect(parsePipelineJson(text).body).toEqual(JSON.parse(body));
  });

  it('ignores a byte order mark', () => {
    expect(parsePipelineJson('\ufeff{"pipeline": ["log"]}').steps[0]!.position).toEqual({ line: 1, column: 15 });
  });

  it('records positions', () => {
    const script = parsePipelineJson(
      [
        '{',
        '  "headers": {"name": "n"},',
        '  "vars": {"v": [1]},',
        '  "pipeline": [',
        '    "datetime",',
        '    {"log": "hi"},',
        '    {"mail.send": {"to": "a@b.c", "subject": "s"}}',
        '  ],',
        '  "body": null',
        '}',
      ].join('\n'),
    );
    expect(script.steps.map((s) => s.position)).toEqual([
      { line: 5, column: 5 },
      { line: 6, column: 6 },
      { line: 7, column: 6 },
    ]);
    expect(script.steps[1]!.paramPositions).toEqual({ '': { line: 6, column: 13 } });
    expect(script.steps[2]!.paramPositions).toEqual({ to: { line: 7, column: 26 }, subject: { line: 7, column: 46 } });
    expect(script.sectionPositions).toEqual({
      headers: { name: { line: 2, column: 23 } },
      vars: { v: { line: 3, column: 17 } },
      body: { line: 9, column: 11 },
    });
  });

  it.each([
    ['an unclosed object', '{"pipeline": ["log"]', 'Unexpected end of the input', 1, 21],
    ['text after the document', '{"pipeline": ["log"]} x', "Unexpected 'x' after the end", 1, 23],
    ['a trailing comma in a list', '{"pipeline": ["log",]}', "Expected a value, found ']'", 1, 21],
    ['a trailing comma in an object', '{"pipeline": ["log"], }', 'Expected a key in double quotes', 1, 23],
    ['single quotes', "{'pipeline': []}", 'Expected a key in double quotes', 1, 2],
    ['a bare word', '{"pipeline": [log]}', "Expected a value, found 'l'", 1, 15],
    ['a raw line break in a string', '{"pipeline": ["lo\ng"]}', 'A string cannot hold a line break', 1, 18],
    ['a bad escape', '{"pipeline": ["\\q"]}', "Invalid escape '\\q'", 1, 16],
    ['a missing colon', '{"pipeline" ["log"]}', "Expected ':' after the key 'pipeline'", 1, 13],
    ['a missing comma', '{\n  "pipeline": ["log"]\n  "body": 1\n}', "Expected ',' or '}'", 3, 3],
    ['a leading zero', '{"pipeline": [01]}', "Expected ',' or ']'", 1, 16],
    ['an unterminated string', '{"pipeline": ["log]}', 'Unterminated string', 1, 15],
    ['a duplicate key', '{"pipeline":\n  [\n    {"log": {"message": 1, "message": 2}}\n  ]\n}', "Duplicate key 'message'", 3, 28],
    ['an empty text', '  ', 'The script is empty', 1, 1],
    ['an item with two keys', '{"pipeline": [{"log": {}, "x": 1}]}', 'Pipeline item 1 must have exactly one key', 1, 15],
    ['a bad name', '{"pipeline": [{"Log": {}}]}', "Invalid command name 'Log'", 1, 16],
    ['an unknown section', '{"pipeline": ["log"], "steps": []}', "Unknown section 'steps'", 1, 23],
  ])('reports %s with line and column', (_, text, message, line, column) => {
    const error = caught(() => parsePipelineJson(text));
    expect(error).toMatchObject({ code: 'PIPELINE_SYNTAX', line, column });
    expect(error.message).toContain(message);
  });
});
