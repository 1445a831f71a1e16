import { describe, expect, test } from 'vitest';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import { parsePipelineUri } from '../../../shared/pipeline/parse-uri';
import { convertPipeline, ConversionError, yamlHasComments } from './convert';
import { languageForMime } from './language';
import { withMarkdownDescriptions } from './schema-docs';

const YAML = `pipeline:
  - datetime:
      format: dd.MM.yyyy
  - log:
      message: "a|b & c=d 100% #{body.x | 'y'} #{1 % 2}"
      level: 3
  - set.body
`;

const steps = (text: string, form: 'yaml' | 'json' | 'uri') =>
  parsePipeline(text, form).steps.map((s) => ({
    command: s.command,
    params: s.params,
    value: s.defaultValue,
  }));

describe('convertPipeline', () => {
  test('YAML -> JSON -> URI -> YAML keeps every command and parameter', () => {
    const json = convertPipeline(YAML, 'yaml', 'json');
    expect(JSON.parse(json).pipeline[1].log.level).toBe(3);
    const uri = convertPipeline(json, 'json', 'uri');
    expect(uri).not.toContain('\n');
    const back = convertPipeline(uri, 'uri', 'yaml');
    // The URI form has only text: the number becomes "3", everything else is the same.
    const expected = steps(YAML, 'yaml');
    expected[1]!.params.level = '3';
    expect(steps(back, 'yaml')).toEqual(expected);
    expect(steps(uri, 'uri')).toEqual(expected);
  });

  test('the URI encodes what the URI parser would split or decode, and keeps expressions readable', () => {
    const uri = convertPipeline(YAML, 'yaml', 'uri');
    expect(uri).toBe(
      "datetime?format=dd.MM.yyyy|log?message=a%7Cb%20%26%20c=d%20100%25%20#{body.x | 'y'}%20#{1 %25 2}&level=3|set.body",
    );
    expect(parsePipelineUri(uri).steps[1]!.params.message).toBe("a|b & c=d 100% #{body.x | 'y'} #{1 % 2}");
  });

  test('line breaks, repeated parameters and the short form with a known default parameter', () => {
    const yaml = 'pipeline:\n  - log: "two\\nlines"\n  - mail.send:\n      to: [a@x.org, b@x.org]\n';
    expect(() => convertPipeline(yaml, 'yaml', 'uri')).toThrow(ConversionError);
    const uri = convertPipeline(yaml, 'yaml', 'uri', {
      defaultParameter: (name) => (name === 'log' ? 'message' : undefined),
    });
    expect(uri).toBe('log?message=two%0Alines|mail.send?to=a@x.org&to=b@x.org');
    expect(parsePipelineUri(uri).steps.map((s) => s.params)).toEqual([
      { message: 'two\nlines' },
      { to: ['a@x.org', 'b@x.org'] },
    ]);
  });

  test('what a URI cannot hold is refused with a reason', () => {
    expect(() => convertPipeline('headers:\n  name: x\npipeline:\n  - log\n', 'yaml', 'uri')).toThrow(
      /cannot hold the 'headers' section/,
    );
    expect(() => convertPipeline('pipeline:\n  - log:\n      message: {a: 1}\n', 'yaml', 'uri')).toThrow(
      /'message' of 'log' is a map/,
    );
    // ... but YAML <-> JSON keeps every section.
    const json = convertPipeline(
      'headers:\n  name: x\nvars:\n  n: 1\npipeline:\n  - log\nbody: {a: [1]}\n',
      'yaml',
      'json',
    );
    expect(JSON.parse(json)).toEqual({
      headers: { name: 'x' },
      vars: { n: 1 },
      pipeline: ['log'],
      body: { a: [1] },
    });
    expect(convertPipeline(json, 'json', 'yaml')).toBe(
      'headers:\n  name: x\nvars:\n  n: 1\npipeline:\n  - log\nbody:\n  a:\n    - 1\n',
    );
  });

  test('a text that does not parse fails with the shared parser error and its place', () => {
    expect(() => convertPipeline('pipeline:\n  - log:\n   - x: [', 'yaml', 'json')).toThrow(
      expect.objectContaining({
        code: 'PIPELINE_SYNTAX',
        details: expect.objectContaining({ line: 2, column: 9 }),
      }),
    );
    expect(convertPipeline('x', 'yaml', 'yaml')).toBe('x');
  });
});

test('languageForMime', () => {
  expect(languageForMime('application/json; charset=utf-8')).toBe('json');
  expect(languageForMime('application/vnd.pipework+json')).toBe('json');
  expect(languageForMime('application/x-yaml')).toBe('yaml');
  expect(languageForMime('text/XML')).toBe('xml');
  expect(languageForMime('image/svg+xml')).toBe('xml');
  expect(languageForMime('text/html')).toBe('html');
  expect(languageForMime('application/octet-stream')).toBe('plaintext');
  expect(languageForMime('')).toBe('plaintext');
});

test('schema descriptions keep their <placeholders> when shown as Markdown', () => {
  const schema = {
    description: 'Pipelines',
    properties: { log: { description: 'Logs. Short form: - log: <message>.', type: 'object' } },
    items: [{ description: 'a & b' }],
  };
  const documented = withMarkdownDescriptions(schema);
  expect(documented.properties.log).toEqual({
    description: 'Logs. Short form: - log: <message>.',
    markdownDescription: 'Logs. Short form: - log: &lt;message&gt;.',
    type: 'object',
  });
  expect(documented.items[0]).toEqual({ description: 'a & b', markdownDescription: 'a &amp; b' });
  expect(documented).not.toHaveProperty('markdownDescription');
  expect(schema.properties.log).not.toHaveProperty('markdownDescription');
});

describe('yamlHasComments', () => {
  test('finds comments before, after and inside the document, never in values', () => {
    expect(yamlHasComments('# head\npipeline:\n  - log: hi\n')).toBe(true);
    expect(yamlHasComments('pipeline:\n  - log: hi # why\n')).toBe(true);
    expect(yamlHasComments('pipeline:\n  # next\n  - log: hi\n')).toBe(true);
    expect(yamlHasComments('pipeline:\n  - log: hi\n# tail\n')).toBe(true);
    expect(yamlHasComments(YAML)).toBe(false);
    expect(yamlHasComments('pipeline:\n  - log: "a # b"\n  - log: |\n      # not a comment\n')).toBe(false);
  });
});
