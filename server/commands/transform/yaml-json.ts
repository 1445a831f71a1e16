/** `transform.yaml.json` and `transform.json.yaml`: YAML text to JSON and back (aliases bounded). */
import { parse, stringify } from 'yaml';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { inputJson, inputText } from './input-text';

export const yamlToJson = defineCommand(
  {
    name: 'transform.yaml.json',
    summary: 'Reads YAML text into JSON.',
    parameters: {},
    input: 'text',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'YAML to JSON',
        pipeline: 'body: "name: pen\\nqty: 2\\n"\npipeline:\n  - transform.yaml.json\n',
      },
    ],
  },
  (ctx) => {
    const text = inputText(ctx.input, 'transform.yaml.json', 'YAML');
    let value: unknown;
    try {
      // maxAliasCount bounds alias expansion (a "billion laughs" document fails instead of growing).
      value = parse(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true }) ?? null;
    } catch (error) {
      const e = error as Error & { linePos?: { line: number; col: number }[] };
      const place = e.linePos?.[0];
      throw new PipeworkError(
        'BAD_REQUEST',
        `transform.yaml.json: the input is not valid YAML (${e.message.split('\n')[0]}).`,
        place ? { line: place.line, column: place.col } : {},
      );
    }
    assertJsonNumbers(value);
    return value;
  },
);

/**
 * Decision (issue 18): JSON has no Infinity or NaN, so `.inf`, `-.inf`, `.nan` and numbers past the double range
 * (`1e400`) are refused with where they are, instead of turning into null. Quote them to keep them as text.
 */
function assertJsonNumbers(root: unknown): void {
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new PipeworkError(
        'BAD_REQUEST',
        `transform.yaml.json: ${path || 'the document'} is ${String(value)}, which JSON cannot hold (.inf, .nan or a number past the double range); quote it to keep it as text.`,
        { path: path || '$' },
      );
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
    else
      for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: path ? `${path}.${k}` : k });
  }
}

export const jsonToYaml = defineCommand(
  {
    name: 'transform.json.yaml',
    summary: 'Writes JSON as YAML text.',
    parameters: {},
    input: 'json',
    output: 'text',
    effect: 'read',
    audience: 'developer',
    examples: [
      { title: 'JSON to YAML', pipeline: 'body: {name: pen, qty: 2}\npipeline:\n  - transform.json.yaml\n' },
    ],
  },
  (ctx) => stringify(inputJson(ctx.input, 'transform.json.yaml'), { aliasDuplicateObjects: false }),
);
