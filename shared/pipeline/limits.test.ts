import { describe, expect, it } from 'vitest';
import { isPipeworkError } from '../errors';
import {
  PIPELINE_LIMITS,
  parsePipeline,
  parsePipelineJson,
  parsePipelineYaml,
  type PipelineSourceKind,
} from './index';
import { caught } from './test-helpers';

const N = 10_000;

/** Runs `fn` and returns how long it took in milliseconds. */
function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

describe('deep nesting gives a clean PIPELINE_SYNTAX, fast', () => {
  it.each<[string, PipelineSourceKind, string]>([
    ['YAML flow lists', 'yaml', `pipeline: [log]\nbody: ${'['.repeat(N)}${']'.repeat(N)}\n`],
    ['YAML flow maps', 'yaml', `pipeline: [log]\nbody: ${'{a: '.repeat(N)}1${'}'.repeat(N)}\n`],
    ['YAML block lists', 'yaml', `pipeline: [log]\nbody:\n  ${'- '.repeat(N)}x\n`],
    ['YAML parameters', 'yaml', `pipeline:\n  - log:\n      message: ${'['.repeat(N)}${']'.repeat(N)}\n`],
    ['JSON lists', 'json', `{"pipeline": ["log"], "body": ${'['.repeat(N)}${']'.repeat(N)}}`],
    ['JSON objects', 'json', `{"pipeline": ["log"], "body": ${'{"a": '.repeat(N)}1${'}'.repeat(N)}}`],
    ['JSON that is not closed', 'json', '['.repeat(N)],
  ])('%s, 10,000 levels', (_, kind, text) => {
    let error: ReturnType<typeof caught> | undefined;
    const ms = timed(() => (error = caught(() => parsePipeline(text, kind))));
    expect(error).toMatchObject({ code: 'PIPELINE_SYNTAX' });
    expect(error!.message).toContain(`deeper than ${PIPELINE_LIMITS.maxDepth} levels`);
    expect(error!.line).toBeGreaterThanOrEqual(1);
    expect(ms).toBeLessThan(2000);
  });

  it('takes exactly maxDepth levels (the root map is level 1) and refuses one more', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const depth = PIPELINE_LIMITS.maxDepth;
    expect(parsePipelineYaml(`pipeline: [log]\nbody: ${nested(depth - 1)}`).body).toBeTruthy();
    expect(parsePipelineJson(`{"pipeline": ["log"], "body": ${nested(depth - 1)}}`).body).toBeTruthy();
    expect(caught(() => parsePipelineYaml(`pipeline: [log]\nbody: ${nested(depth)}`))).toMatchObject({
      code: 'PIPELINE_SYNTAX',
      line: 2,
    });
    expect(caught(() => parsePipelineJson(`{"pipeline": ["log"], "body": ${nested(depth)}}`))).toMatchObject({
      code: 'PIPELINE_SYNTAX',
      line: 1,
      column: 31 + depth - 1,
    });
  });

  it('counts depth through aliases too', () => {
    const levels = ['vars:', `  l0: &l0 ${'['.repeat(150)}1${']'.repeat(150)}`];
    for (let i = 1; i <= 3; i++)
      levels.push(`  l${i}: &l${i} ${'['.repeat(150)}*l${i - 1}${']'.repeat(150)}`);
    const error = caught(() => parsePipelineYaml([...levels, 'pipeline: [log]'].join('\n')));
    expect(error).toMatchObject({ code: 'PIPELINE_SYNTAX', line: 3 });
    expect(error.message).toContain('through aliases');
  });
});

describe('resource limits', () => {
  it('refuses an alias bomb ("billion laughs")', () => {
    const bomb = ['vars:', '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [name, prev] of [...'bcdefghi'].map((c, i) => [c, 'abcdefgh'[i]])) {
      bomb.push(`  ${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    bomb.push('pipeline: [log]');
    let error: ReturnType<typeof caught> | undefined;
    const ms = timed(() => (error = caught(() => parsePipelineYaml(bomb.join('\n')))));
    expect(error).toMatchObject({ code: 'PIPELINE_SYNTAX', line: 3, column: 10 });
    expect(error!.message).toContain('Aliases expand to too much data');
    expect(ms).toBeLessThan(1000);
  });

  it('refuses a 5 MB source at once with LIMIT_EXCEEDED', () => {
    const step = '  - log:\n      message: "Hello #{body.text}, this is one step of a long pipeline"\n';
    const text = `pipeline:\n${step.repeat(Math.ceil((5 * 1024 * 1024) / step.length))}`;
    for (const kind of ['yaml', 'json', 'uri'] as const) {
      let error: ReturnType<typeof caught> | undefined;
      const ms = timed(() => (error = caught(() => parsePipeline(text, kind))));
      expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
      expect(ms).toBeLessThan(50);
    }
  });

  it('parses a source just under the limit', () => {
    const step = '  - log:\n      message: "Hello #{body.text}, this is one step of a long pipeline"\n';
    const count = Math.floor((PIPELINE_LIMITS.maxSourceLength - 20) / step.length);
    const yaml = `pipeline:\n${step.repeat(count)}`;
    expect(parsePipelineYaml(yaml).steps).toHaveLength(count);
    const json = JSON.stringify({ pipeline: Array(count).fill({ log: { message: 'Hello #{body.text}' } }) });
    expect(parsePipelineJson(json).steps).toHaveLength(count);
  });
});

describe('bad input never escapes as anything but a PipeworkError', () => {
  // A small deterministic generator, so a failure is reproducible.
  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x7fffffff;
    };
  }
  const samples = [
    'headers:\n  a: "x"\nvars:\n  v: [1, {b: 2}]\npipeline:\n  - log:\n      message: "#{body}"\n  - datetime: yyyy\nbody: |\n  text\n',
    '{"headers": {"a": "x"}, "vars": {"v": [1, {"b": 2}]}, "pipeline": [{"log": {"message": "#{body}"}}, "datetime"]}',
    'datetime?format=dd.MM.yyyy|log?message=%23%7Bbody%7D&x=#{a || b}',
  ];
  const alphabet = [
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '-',
    '|',
    '&',
    '?',
    '=',
    '%',
    '"',
    "'",
    '\n',
    ' ',
    '\t',
    '*',
    '&a',
    '!',
    '#{',
    'x',
  ];

  it.each(samples.flatMap((sample) => ['yaml', 'json', 'uri'].map((kind) => [kind, sample] as const)))(
    '%s mutations of a sample',
    (kind, sample) => {
      const next = random(sample.length + kind.length);
      for (let round = 0; round < 300; round++) {
        let text = sample;
        for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits--) {
          const at = Math.floor(next() * text.length);
          const insert = next() < 0.6 ? alphabet[Math.floor(next() * alphabet.length)]! : '';
          text = text.slice(0, at) + insert + text.slice(at + (next() < 0.5 ? 1 : 0));
        }
        try {
          parsePipeline(text, kind as PipelineSourceKind);
        } catch (error) {
          if (!isPipeworkError(error)) throw new Error(`${String(error)} for ${JSON.stringify(text)}`);
        }
      }
    },
  );
});
