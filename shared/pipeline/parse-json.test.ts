import { describe, expect, it } from 'vitest';
import { parsePipelineJson } from './index';

describe('parsePipelineJson', () => {
  it('reads every item form', () => {
    const script = parsePipelineJson(
      '{"pipeline": ["datetime", {"log": "hi"}, {"log": null}, {"log": {"message": "x", "n": 2}}]}',
    );
    expect(
      script.steps.map(({ command, params, defaultValue }) => ({ command, params, defaultValue })),
    ).toEqual([
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
    expect(Object.is(parsePipelineJson(text).body, JSON.parse(body))).toBe(
      typeof JSON.parse(body) !== 'object',
    );
    expect(parsePipelineJson(text).body).toEqual(JSON.parse(body));
  });

  it('ignores a byte order mark', () => {
    expect(parsePipelineJson('\ufeff{"pipeline": ["log"]}').steps[0]!.position).toEqual({
      line: 1,
      column: 15,
    });
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
    expect(script.steps[2]!.paramPositions).toEqual({
      to: { line: 7, column: 26 },
      subject: { line: 7, column: 46 },
    });
    expect(script.sectionPositions).toEqual({
      headers: { name: { line: 2, column: 23 } },
      vars: { v: { line: 3, column: 17 } },
      body: { line: 9, column: 11 },
    });
  });

  // Errors with their line and column: cases/syntax-errors.json (run by cases.test.ts).
});
