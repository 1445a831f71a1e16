import { describe, expect, test } from 'vitest';
import { analyze } from '../../../shared/pel/analyze';
import { locateInParameter } from '../../../shared/pipeline/locate';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import { checkPipelineExpressions, PelCheckCache } from './pel-check';
import { offsetInScalar, positionInScalar, scalarAt } from './pel-locate';
import { scopeOfPipeline } from './pel-scope';

const check = (text: string, language: 'yaml' | 'json' = 'yaml') =>
  checkPipelineExpressions(text.split('\n'), language).map(
    (p) => `${p.startLine}:${p.startColumn}-${p.endLine}:${p.endColumn} ${p.severity} ${p.message}`,
  );

describe('PEL problems are placed under the exact characters of the pipeline text', () => {
  test('double-quoted values with escapes before the fault', () => {
    // "a\"b #{1 +}": the '}' that ends the broken expression is column 27 (the escape is two characters).
    expect(check('pipeline:\n  - log:\n      message: "a\\"b #{1 +}"')).toEqual([
      '3:27-3:28 error unexpected end of expression, expected a value',
    ]);
  });

  test("single-quoted values with '' inside, plain values and flow lists", () => {
    expect(check("pipeline:\n  - log:\n      message: 'it''s #{@nix.x()}'")).toEqual([
      "3:25-3:29 warning unknown utility '@nix'",
    ]);
    expect(check('pipeline:\n  - log:\n      message: a#{@date.nope()}')).toEqual([
      "3:25-3:29 warning the utility '@date' has no function 'nope'",
    ]);
    expect(check('pipeline:\n  - log: [x, "#{foo}"]')).toEqual([
      "2:17-2:20 warning unknown name 'foo' (the roots are body, vars, headers, request, exception)",
    ]);
  });

  test('block scalars: the line and column inside the block', () => {
    const text =
      'pipeline:\n  - log:\n      message: |\n        first line\n        then #{body.x +* 2}\nbody: {}';
    expect(check(text)).toEqual(["5:24-5:25 error unexpected '*', expected a value"]);
  });

  test('JSON strings with \\u escapes', () => {
    const text = '{\n  "pipeline": [\n    { "log": { "message": "\\u00e9 #{(1}" } }\n  ]\n}';
    expect(check(text, 'json')).toEqual(["3:39-3:40 error unexpected end of expression, expected ')'"]);
  });

  test('an expression YAML reads as a comment is pointed out', () => {
    expect(check('pipeline:\n  - log:\n      message: Hello #{body}')).toEqual([
      "3:22-3:29 warning YAML reads ' #' as the start of a comment, so this expression is ignored: put the value in quotes",
    ]);
  });

  test('keys, comments and values without #{ are left alone', () => {
    expect(check('# #{not checked}\npipeline:\n  - log: "plain"\n  - log: "#{body}" # #{nor this}')).toEqual(
      [],
    );
  });

  test('agrees with the full parser and the shared locator on every style', () => {
    const text = [
      'vars:',
      '  a: 1',
      'pipeline:',
      '  - log:',
      '      message: "x\\ty #{1 +}"',
      '  - log:',
      "      message: 'q''q #{(2}'",
      '  - log:',
      '      message: z#{3 3}',
      '  - log:',
      '      message: |',
      '        one',
      '          two #{4 +}',
    ].join('\n');
    const script = parsePipeline(text, 'yaml');
    const expected = script.steps.map((step) => {
      const value = step.params.message as string;
      const [d] = analyze(value, { mode: 'template' }).diagnostics;
      const at = locateInParameter(step, 'message', d!.start)!;
      return `${at.line}:${at.column}`;
    });
    const ours = checkPipelineExpressions(text.split('\n'), 'yaml').map(
      (p) => `${p.startLine}:${p.startColumn}`,
    );
    expect(ours).toEqual(expected);
  });

  test('a keystroke re-analyses only the value it changed', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `  - log: "#{body.v${i} + ${i}}"`);
    const cache = new PelCheckCache();
    checkPipelineExpressions(['pipeline:', ...lines], 'yaml', cache);
    expect(cache.misses).toBe(500);
    lines[250] = '  - log: "#{body.v250 +}"';
    const problems = checkPipelineExpressions(['pipeline:', ...lines], 'yaml', cache);
    expect(cache.misses).toBe(501);
    expect(problems.map((p) => `${p.startLine}:${p.startColumn}`)).toEqual(['252:24']);
  });
});

describe('cursor positions and value offsets', () => {
  test('offsets map to positions and back, across escapes', () => {
    const lines = ['pipeline:', '  - log: "\\"#{body.}"'];
    const found = scalarAt(lines, 'yaml', { line: 2, column: 20 })!;
    expect(found.scalar.value).toBe('"#{body.}');
    expect(found.offset).toBe(8);
    expect(positionInScalar(found.scalar, 8)).toEqual({ line: 2, column: 20 });
    expect(offsetInScalar(found.scalar, { line: 2, column: 13 })).toBe(1);
    expect(scalarAt(lines, 'yaml', { line: 2, column: 5 })).toBeNull();
  });

  test('the scope names the declared vars, even while the text does not parse', () => {
    expect(scopeOfPipeline('vars:\n  count: 1\n  name: x\npipeline:\n  - log', 'yaml').vars).toEqual({
      count: 1,
      name: 'x',
    });
    expect(scopeOfPipeline('vars:\n  count: 1\n  name: "x\npipeline: [', 'yaml').vars).toEqual([
      'count',
      'name',
    ]);
  });
});

test('a first check of a long pipeline goes on in slices when given a deadline', () => {
  const lines = ['pipeline:', ...Array.from({ length: 300 }, (_, i) => `  - log: "#{body.v${i} +}"`)];
  const cache = new PelCheckCache();
  let rounds = 0;
  let problems = null;
  while (problems === null) {
    rounds++;
    // A deadline already passed: each round analyses one new value (so it always makes progress).
    problems = checkPipelineExpressions(lines, 'yaml', cache, 0);
  }
  expect(rounds).toBe(300);
  expect(problems).toHaveLength(300);
  expect(problems).toEqual(checkPipelineExpressions(lines, 'yaml'));
});
