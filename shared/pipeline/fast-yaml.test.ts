/**
 * The fast YAML path stands in for the careful one: for every pipeline text we have (the model and syntax
 * cases, the docs examples, the corpus apps, and scalars chosen where YAML schemas differ), parsing with lazy
 * positions gives the same model, the same positions once read, and the same errors as parsing with them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYamlData } from 'yaml';
import { loadYamlFast } from './fast-yaml';
import { locatedTexts } from './lazy-positions';
import type { PipelineScript } from './model';
import { parsePipelineYaml } from './parse-yaml';

const ROOT = join(import.meta.dirname, '..', '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'app-examples');

const joined = (source: string | string[]) => (Array.isArray(source) ? source.join('\n') : source);

function caseTexts(): string[] {
  const models = JSON.parse(readFileSync(join(import.meta.dirname, 'cases/models.json'), 'utf8')) as {
    cases: { sources: { yaml?: string | string[] } }[];
  };
  const errors = JSON.parse(readFileSync(join(import.meta.dirname, 'cases/syntax-errors.json'), 'utf8')) as {
    cases: { kind: string; source: string | string[] }[];
  };
  return [
    ...models.cases.flatMap((c) => (c.sources.yaml === undefined ? [] : [joined(c.sources.yaml)])),
    ...errors.cases.filter((c) => c.kind === 'yaml').map((c) => joined(c.source)),
  ];
}

/** Every string in the docs-example cases that holds a pipeline. */
function docsExampleTexts(): string[] {
  const dir = join(ROOT, 'server', 'docs-examples', 'cases');
  const texts: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (/^pipeline:|\npipeline:/.test(value)) texts.push(value);
    } else if (value && typeof value === 'object') {
      for (const child of Object.values(value)) walk(child);
    }
  };
  for (const file of readdirSync(dir)) walk(parseYamlData(readFileSync(join(dir, file), 'utf8')));
  return texts;
}

function corpusTexts(): string[] {
  if (!existsSync(CORPUS)) return [];
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(CORPUS);
  return texts;
}

/** Plain scalars whose type differs between YAML schemas or versions, and texts that need the careful reader. */
const SCALARS = [
  '~',
  'null',
  'Null',
  'NULL',
  '',
  'true',
  'True',
  'TRUE',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '0',
  '-0',
  '+0',
  '007',
  '+12',
  '-12',
  '0o17',
  '0O17',
  '0x1F',
  '0X1F',
  '-0x1F',
  '0b101',
  '1_000',
  '1,000',
  '1.0',
  '-1.5',
  '.5',
  '5.',
  '1e3',
  '1E3',
  '1e+3',
  '-1.2e-3',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '12:30',
  '1:20:30',
  '123456789012345678901234567890',
  '0.1e',
  '"quoted 1"',
  "'single 2'",
  '!!str 5',
  '!!int "7"',
  '!!binary aGk=',
  '!custom x',
  '<<',
  '=',
  '#{body.x}',
  '"#{1 + 2}"',
  '|\n        block\n        text',
  '>\n        folded\n        text',
];

function withScalar(scalar: string): string {
  return `pipeline:\n  - log:\n      message: ${scalar}\n`;
}

const SHAPES = [
  'pipeline:\n  - log:\n      message: &a {x: 1}\n  - log:\n      message: *a\n',
  'pipeline:\n  - log:\n      message: &a hi\n  - log:\n      message: *a\n',
  'pipeline:\n  - log:\n      ? [a, b]\n      : c\n',
  'pipeline:\n  - log:\n      [a]: c\n',
  'pipeline:\n  - log:\n      {a: 1}: c\n',
  'pipeline:\n  - log:\n      null: x\n      true: y\n      1: z\n',
  'pipeline:\n  - log:\n      <<: {message: merged}\n',
  'pipeline:\n  - log:\n      message: a\n---\npipeline:\n  - log\n',
  'pipeline:\n\t- log\n',
  'pipeline:\n  - log:\n      message: "unterminated\n',
  'headers:\n  description: x\nvars:\n  a: 1\npipeline:\n  - log:\n      message: "#{vars.a}"\nbody: {"k": [1, 2]}\n',
  `pipeline:\n${'  - log:\n      message: deep\n'.repeat(3)}body: ${'['.repeat(250)}${']'.repeat(250)}\n`,
];

type Outcome = { script: PipelineScript } | { error: unknown };

function outcome(parse: () => PipelineScript): Outcome {
  try {
    return { script: parse() };
  } catch (error) {
    const { code, message, details } = error as { code?: string; message: string; details?: unknown };
    return { error: { code, message, details } };
  }
}

/** The script as plain data: every lazy field read (structuredClone reads getters). */
const plain = (o: Outcome) => ('script' in o ? { script: structuredClone(o.script) } : o);

describe('the fast YAML path', () => {
  const texts = [
    ...caseTexts(),
    ...docsExampleTexts(),
    ...corpusTexts(),
    ...SCALARS.map(withScalar),
    ...SHAPES,
  ];

  it('reads the texts it is given', () => {
    expect(texts.length).toBeGreaterThan(150);
  });

  it('gives the model, the positions and the errors of the careful path', () => {
    let fastReads = 0;
    for (const text of texts) {
      const careful = plain(outcome(() => parsePipelineYaml(text, { positions: 'eager' })));
      const fast = plain(outcome(() => parsePipelineYaml(text)));
      if (loadYamlFast(text)) fastReads++;
      expect(fast, text).toEqual(careful);
    }
    // Most texts must take the fast path, or it is no fast path.
    expect(fastReads / texts.length).toBeGreaterThan(0.8);
  });

  it('keeps the exact values of numbers (negative zero, NaN, large integers)', () => {
    for (const scalar of ['-0', '.nan', '123456789012345678901234567890', '0o17', '0x1F', '1e3']) {
      const careful = parsePipelineYaml(withScalar(scalar), { positions: 'eager' }).steps[0]!.params.message;
      const fast = parsePipelineYaml(withScalar(scalar)).steps[0]!.params.message;
      expect(Object.is(fast, careful), scalar).toBe(true);
    }
  });

  it('reads positions only when one is read, and then once per text', () => {
    const text = 'pipeline:\n  - log:\n      message: one\n  - log:\n      message: two\n';
    const before = locatedTexts();
    const script = parsePipelineYaml(text);
    expect(script.steps.map((s) => s.params.message)).toEqual(['one', 'two']);
    expect(locatedTexts()).toBe(before);
    expect(script.steps[1]!.position).toEqual({ line: 4, column: 5 });
    expect(script.steps[0]!.paramPositions).toEqual({ message: { line: 3, column: 16 } });
    expect(locatedTexts()).toBe(before + 1);
  });

  it('reads hostile texts in time linear in their length (blank lines, dashes, brackets, question marks)', () => {
    const hostile = [
      ' \n'.repeat(500_000),
      '-\n'.repeat(500_000),
      '- '.repeat(500_000),
      '}\n \n'.repeat(250_000),
      `pipeline:\n${'  - ? \n'.repeat(150_000)}`,
      `a: ${'['.repeat(100_000)}`,
      'null \n'.repeat(200_000),
    ];
    for (const text of hostile) {
      const started = performance.now();
      loadYamlFast(text);
      // Loose for a loaded machine: a quadratic suspect took minutes on the first of these.
      expect(performance.now() - started, JSON.stringify(text.slice(0, 12))).toBeLessThan(2_000);
    }
  });

  it('refuses what the careful path refuses, with its line and column', () => {
    const text = 'pipeline:\n  - log:\n      message: a\n      message: b\n';
    expect(() => parsePipelineYaml(text)).toThrow(expect.objectContaining({ code: 'PIPELINE_SYNTAX' }));
    expect(outcome(() => parsePipelineYaml(text))).toEqual(
      outcome(() => parsePipelineYaml(text, { positions: 'eager' })),
    );
  });
});
