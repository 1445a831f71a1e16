import { describe, expect, it } from 'vitest';
import {
  locateInParameter,
  locateInSection,
  parsePipeline,
  parsePipelineYaml,
  type PipelineSourceKind,
  type SourcePosition,
} from './index';
import { positionAt } from './syntax-error';

/** Where the one '@' of the source is: the place an offset pointing at '@' in the value must map to. */
function marker(source: string): SourcePosition {
  expect(source.split('@')).toHaveLength(2);
  return positionAt(source, source.indexOf('@'));
}

describe('locateInParameter maps an offset in a value to the source', () => {
  it.each<[string, PipelineSourceKind, string]>([
    ['a plain scalar', 'yaml', 'pipeline:\n  - log:\n      message: abc @ def\n'],
    [
      'a single-quoted scalar with a doubled quote',
      'yaml',
      "pipeline:\n  - log:\n      message: 'it''s @'\n",
    ],
    [
      'a double-quoted scalar with escapes',
      'yaml',
      'pipeline:\n  - log:\n      message: "t\\t\\u00e9 \\"q\\" @"\n',
    ],
    ['an escape beyond the BMP', 'yaml', 'pipeline:\n  - log:\n      message: "\\U0001F600 @"\n'],
    [
      'a literal block',
      'yaml',
      'pipeline:\n  - log:\n      message: |\n        line one\n        li@ne two\n',
    ],
    [
      'a literal block, more indented',
      'yaml',
      'pipeline:\n  - log:\n      message: |-\n        a\n\n          b@\n',
    ],
    [
      'a folded block',
      'yaml',
      'pipeline:\n  - log:\n      message: >\n        a b\n        c@ d\n\n        e\n',
    ],
    ['a multi-line plain scalar', 'yaml', 'pipeline:\n  - log:\n      message: first\n        second @\n'],
    [
      'a multi-line double-quoted scalar',
      'yaml',
      'pipeline:\n  - log:\n      message: "first\n        sec@ond"\n',
    ],
    ['a line continuation', 'yaml', 'pipeline:\n  - log:\n      message: "abc\\\n        d@ef"\n'],
    [
      'a literal block with CRLF line ends',
      'yaml',
      'pipeline:\r\n  - log:\r\n      message: |\r\n        one\r\n        tw@o\r\n',
    ],
    ['a flow map value', 'yaml', 'pipeline:\n  - log: {message: "x @"}\n'],
    ['JSON with escapes', 'json', '{"pipeline": [{"log": {\n  "message": "a\\u00e9\\n\\"@"}}]}'],
    ['a URI with escapes', 'uri', 'datetime|log?message=%E2%82%AC%20%23%7B@'],
  ])('in %s', (_, kind, source) => {
    const step = parsePipeline(source, kind).steps.at(-1)!;
    const value = step.params.message as string;
    expect(locateInParameter(step, 'message', value.indexOf('@'))).toEqual(marker(source));
  });

  it('for the default value', () => {
    const source = 'pipeline:\n  - log: "x @"\n';
    const step = parsePipelineYaml(source).steps[0]!;
    expect(locateInParameter(step, '', 2)).toEqual(marker(source));
  });

  it('to the start of the value at offset 0, and the end past the last character', () => {
    const step = parsePipelineYaml('pipeline:\n  - log:\n      message: "abc"\n').steps[0]!;
    expect(locateInParameter(step, 'message', 0)).toEqual({ line: 3, column: 17 });
    expect(locateInParameter(step, 'message', 99)).toEqual({ line: 3, column: 20 });
  });

  it('falls back to the value start for values that are not strings, and to undefined for unknown ones', () => {
    const step = parsePipelineYaml('pipeline:\n  - log:\n      message: {a: "@"}\n').steps[0]!;
    expect(locateInParameter(step, 'message', 3)).toEqual({ line: 3, column: 16 });
    expect(locateInParameter(step, 'other', 3)).toBeUndefined();
  });

  it('works for headers and vars', () => {
    const source = 'headers:\n  h: plain\nvars:\n  v: "a #{@"\npipeline: [log]\n';
    const script = parsePipelineYaml(source);
    expect(locateInSection(script, 'vars', 'v', 4)).toEqual(marker(source));
    expect(locateInSection(script, 'headers', 'h', 2)).toEqual({ line: 2, column: 8 });
  });
});
