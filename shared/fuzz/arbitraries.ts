/**
 * fast-check generators for hostile input: text built from the characters and tokens that matter to each
 * parser (so the search reaches deep states quickly), plus plain arbitrary unicode.
 */
import fc from 'fast-check';

/** Arbitrary text from a token alphabet, joined without separators. */
export function textOf(tokens: readonly string[], maxLength = 60): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...tokens), { maxLength }).map((parts) => parts.join(''));
}

/** Either token soup or plain unicode, so both structured and random input are tried. */
export function hostileText(tokens: readonly string[], maxLength = 60): fc.Arbitrary<string> {
  return fc.oneof(
    textOf(tokens, maxLength),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ maxLength }),
  );
}

export const YAML_TOKENS = [
  'pipeline:',
  'vars:',
  'headers:',
  'body:',
  '\n',
  '\n  ',
  '\n    ',
  '- ',
  'log:',
  'set:',
  'if:',
  'foreach:',
  'message: ',
  'value: ',
  '&a ',
  '*a',
  '<<: ',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '"',
  "'",
  '#',
  '#{',
  '}',
  '|',
  '>',
  '---',
  '...',
  '!!str ',
  '!!binary ',
  '\t',
  '\r',
  '\u0000',
  'x',
  '1',
  'null',
  '~',
];

export const JSON_TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"pipeline"',
  '"log"',
  '"message"',
  '"vars"',
  '"body"',
  '"#{body}"',
  '"',
  '\\',
  '\\u00',
  '1',
  '-',
  'e9',
  'true',
  'null',
  ' ',
  '\n',
  '"__proto__"',
  '"constructor"',
];

export const URI_TOKENS = [
  'log',
  'set',
  '?',
  '&',
  '=',
  '|',
  ':',
  'message',
  'value',
  '#{',
  '}',
  '%',
  '%7C',
  '%zz',
  '%00',
  'body',
  '.',
  ' ',
  'x',
];

export const PEL_TOKENS = [
  'body',
  'vars',
  'headers',
  '.',
  '?.',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  ',',
  ':',
  '@text',
  '@list',
  '@calc',
  '.upperCase',
  '.size',
  "'",
  '"',
  '\\',
  '+',
  '-',
  '*',
  '/',
  '%',
  '==',
  '!=',
  '<',
  '>=',
  '&&',
  '||',
  '!',
  '?',
  '?:',
  '=',
  '.?[',
  '.![',
  '.^[',
  '#this',
  'T(',
  'new ',
  'constructor',
  '__proto__',
  'prototype',
  'matches',
  "'a'",
  '1',
  '1e308',
  '0x',
  'null',
  'true',
  ' ',
  '#{',
];

export const KEY_TOKENS = [
  'global',
  'user',
  'tenant',
  'group',
  'app',
  '/',
  '//',
  '.',
  '..',
  '*',
  '**',
  'a',
  'b-1',
  '_',
  '%2e',
  '\\',
  '\u0000',
  ' ',
  'é',
  '~',
];

/** A valid text with one to three edits (a token inserted or a span deleted), to probe near-valid input. */
export function mutatedText(seeds: readonly string[], tokens: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.tuple(
    fc.nat(),
    fc.nat({ max: 4 }),
    fc.option(fc.constantFrom(...tokens), { nil: undefined }),
  );
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 3 }))
    .map(([seed, edits]) => {
      let text = seed;
      for (const [at, length, token] of edits) {
        const position = at % (text.length + 1);
        text =
          token === undefined
            ? text.slice(0, position) + text.slice(position + length)
            : text.slice(0, position) + token + text.slice(position);
      }
      return text;
    });
}

export const YAML_SEEDS = [
  'pipeline:\n  - log:\n      message: "#{body.a}"\n',
  'vars:\n  x: 1\npipeline:\n  - set:\n      value: "#{vars.x + 1}"\n      output: "#{vars.y}"\n  - log:\n      message: done\nbody: {"a": [1, 2]}\n',
  'headers:\n  h: v\npipeline:\n  - if:\n      true: "#{1 < 2}"\n  - log:\n      message: "#{@text.upperCase(\'a\')}"\n  - endif:\n',
];

export const JSON_SEEDS = [
  '{"pipeline":[{"log":{"message":"#{body.a}"}}]}',
  '{"vars":{"x":1},"pipeline":[{"set":{"value":"#{vars.x}","output":"#{vars.y}"}}],"body":[1,2]}',
];

export const URI_SEEDS = ['log?message=hi', 'set?value=#{1+1}&output=#{vars.a}|log?message=#{vars.a}'];
