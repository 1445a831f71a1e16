import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer';

const kinds = (src: string): string[] => tokenize(src).map((t) => `${t.kind}:${t.value}`);

describe('tokenize', () => {
  it.each([
    ['body.name', ['identifier:body', 'punct:.', 'identifier:name', 'eof:']],
    ["'it''s'", ["string:it's", 'eof:']],
    ['"a""b"', ['string:a"b', 'eof:']],
    ['a?.b ?: c', ['identifier:a', 'punct:?.', 'identifier:b', 'punct:?:', 'identifier:c', 'eof:']],
    [
      'x.?[y].^[z].$[w].![v]',
      [
        'identifier:x',
        'punct:.',
        'punct:?[',
        'identifier:y',
        'punct:]',
        'punct:.',
        'punct:^[',
        'identifier:z',
        'punct:]',
        'punct:.',
        'punct:$[',
        'identifier:w',
        'punct:]',
        'punct:.',
        'punct:![',
        'identifier:v',
        'punct:]',
        'eof:',
      ],
    ],
    ['#this #root #x @date', ['variable:this', 'variable:root', 'variable:x', 'utility:date', 'eof:']],
    [
      'a >= b != c == d <= e',
      [
        'identifier:a',
        'punct:>=',
        'identifier:b',
        'punct:!=',
        'identifier:c',
        'punct:==',
        'identifier:d',
        'punct:<=',
        'identifier:e',
        'eof:',
      ],
    ],
    ['#{ 1 }', ['punct:#{', 'number:1', 'punct:}', 'eof:']],
    ['1 ~', ['number:1', 'error:UNEXPECTED_CHARACTER', 'eof:']],
    ["'open", ['error:UNTERMINATED_STRING', 'eof:']],
  ])('%s', (src, expected) => {
    expect(kinds(src)).toEqual(expected);
  });

  it.each([
    ['42', 42, false],
    ['4.5', 4.5, true],
    ['1e3', 1000, true],
    ['0x1f', 31, false],
    ['7L', 7, false],
    ['2d', 2, true],
    ['3f', 3, true],
  ])('number %s', (src, value, decimal) => {
    const [t] = tokenize(src);
    expect(t).toMatchObject({ kind: 'number', number: value, decimal });
  });

  it('keeps offsets relative to the whole source when lexing a slice', () => {
    const tokens = tokenize('ab #{x.y} cd', 5, 8);
    expect(tokens.map((t) => [t.start, t.end])).toEqual([
      [5, 6],
      [6, 7],
      [7, 8],
      [8, 8],
    ]);
  });
});
