import { describe, expect, it } from 'vitest';
import models from './cases/models.json';
import syntaxErrors from './cases/syntax-errors.json';
import { parsePipeline, type PipelineSourceKind } from './index';
import { caught } from './test-helpers';

/** A case's source: a string as it is, a list of YAML lines joined (with a final line break). */
const sourceOf = (source: string | string[]) => (Array.isArray(source) ? `${source.join('\n')}\n` : source);

describe('conformance: syntax errors (cases/syntax-errors.json)', () => {
  it.each(syntaxErrors.cases)('$name', ({ kind, source, code, message, line, column }) => {
    const error = caught(() => parsePipeline(sourceOf(source), kind as PipelineSourceKind));
    expect(error).toMatchObject({ code, line, column });
    expect(error.message).toContain(message);
    expect(error.message).toContain(`at ${line}:${column}`);
  });
});

describe('conformance: models (cases/models.json)', () => {
  const forms = models.cases.flatMap(({ name, sources, model }) =>
    Object.entries(sources).map(([kind, source]) => ({ name: `${name} (${kind})`, kind, source, model })),
  );
  it.each(forms)('$name', ({ kind, source, model }) => {
    const script = parsePipeline(sourceOf(source), kind as PipelineSourceKind);
    expect({
      headers: script.headers,
      vars: script.vars,
      body: script.body,
      steps: script.steps.map(({ command, params, defaultValue }) => ({
        command,
        params,
        ...(defaultValue === undefined ? {} : { defaultValue }),
      })),
    }).toEqual(model);
  });
});
