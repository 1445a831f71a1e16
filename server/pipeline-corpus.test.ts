// Every pipeline of the real product's app examples must parse, and give the same model as its JSON twin.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePipelineJson, parsePipelineYaml, type PipelineScript } from '../shared/pipeline';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '../shared/corpus/app-examples');
const files = readdirSync(corpus, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.pi.yaml'))
  .sort();

const content = (script: PipelineScript) => ({
  headers: script.headers,
  vars: script.vars,
  body: script.body,
  steps: script.steps.map(({ command, params, defaultValue }) => ({ command, params, defaultValue })),
});

describe('the app-example corpus', () => {
  it('has pipelines to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('%s parses', (file) => {
    const text = readFileSync(path.join(corpus, file), 'utf8');
    const script = parsePipelineYaml(text);
    expect(script.steps.length).toBeGreaterThan(0);
    for (const step of script.steps) {
      expect(step.position?.line).toBeGreaterThan(0);
      // The command name really is at the recorded place.
      const { line, column } = step.position!;
      expect(text.split('\n')[line - 1]!.slice(column - 1)).toMatch(
        new RegExp(`^${step.command.replace(/\./g, '\\.')}\\b`),
      );
      for (const name of Object.keys(step.params)) expect(step.paramPositions?.[name]).toBeDefined();
    }
    const twin = {
      headers: script.headers,
      vars: script.vars,
      pipeline: script.steps.map((s) => ({ [s.command]: s.defaultValue ?? s.params })),
      body: script.body,
    };
    const json = parsePipelineJson(JSON.stringify(twin, null, 2));
    expect(content(json)).toEqual(content(script));
  });
});
