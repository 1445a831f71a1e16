import { describe, expect, it } from 'vitest';
import { parsePipelineUri } from './index';

const commands = (text: string) =>
  parsePipelineUri(text).steps.map(({ command, params }) =>
    Object.keys(params).length ? { [command]: params } : command,
  );

describe('parsePipelineUri', () => {
  it.each([
    [
      'the example of the design',
      'datetime?format=dd.MM.yyyy|log',
      [{ datetime: { format: 'dd.MM.yyyy' } }, 'log'],
    ],
    [
      'percent-encoded values',
      'log?message=BODY:%20%23%7Bbody.text%7D',
      [{ log: { message: 'BODY: #{body.text}' } }],
    ],
    [
      'an encoded | that does not split',
      'log?message=a%7Cb|datetime',
      [{ log: { message: 'a|b' } }, 'datetime'],
    ],
    ['UTF-8 escapes', 'log?message=%E2%82%AC%20%C3%A9', [{ log: { message: '€ é' } }]],
    [
      'a + that stays a plus (RFC 3986, not forms)',
      'log?message=1+2&x=%2B',
      [{ log: { message: '1+2', x: '+' } }],
    ],
    [
      'a % without two hex digits kept as it is',
      'log?message=50%&x=#{a % 2}',
      [{ log: { message: '50%', x: '#{a % 2}' } }],
    ],
    ['a | inside #{...}', 'log?message=#{a || b}|datetime', [{ log: { message: '#{a || b}' } }, 'datetime']],
    ['a & inside #{...}', 'log?message=#{a && b}&x=1', [{ log: { message: '#{a && b}', x: '1' } }]],
    [
      'braces and quotes inside #{...}',
      "log?m=#{ {a: '}|'}.a }|x",
      [{ log: { m: "#{ {a: '}|'}.a }" } }, 'x'],
    ],
    ['an unclosed #{ that keeps the rest', 'log?m=#{a|b', [{ log: { m: '#{a|b' } }]],
    ['an = inside a value', 'log?message=a=b', [{ log: { message: 'a=b' } }]],
    ['a parameter without a value', 'log?flag', [{ log: { flag: '' } }]],
    ['a repeated parameter as a list', 'log?a=1&a=2&a=3', [{ log: { a: ['1', '2', '3'] } }]],
    ['empty parts of the query', 'log?&&message=x&', [{ log: { message: 'x' } }]],
    ['an empty query', 'log?', ['log']],
    ['spaces around | and the ends', '  datetime | log  \n', ['datetime', 'log']],
    ['a byte order mark', '\ufefflog', ['log']],
  ])('reads %s', (_, text, expected) => {
    expect(commands(text)).toEqual(expected);
  });

  it('gives positions as columns on line 1', () => {
    const script = parsePipelineUri('datetime?format=x|log?message=a&level=INFO|y?flag');
    expect(script.steps.map((s) => s.position)).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 19 },
      { line: 1, column: 44 },
    ]);
    expect(script.steps[1]!.paramPositions).toEqual({
      message: { line: 1, column: 31 },
      level: { line: 1, column: 39 },
    });
    expect(script.steps[2]!.paramPositions).toEqual({ flag: { line: 1, column: 46 } });
    expect(script).toMatchObject({ headers: {}, vars: {}, body: null, source: 'uri' });
  });

  // Errors with their column: cases/syntax-errors.json (run by cases.test.ts).
});
