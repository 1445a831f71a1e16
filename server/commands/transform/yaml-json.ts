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
    examples: [
      {
        title: 'YAML to JSON',
        pipeline: 'body: "name: pen\\nqty: 2\\n"\npipeline:\n  - transform.yaml.json\n',
      },
    ],
  },
  (ctx) => {
    const text = inputText(ctx.input, 'transform.yaml.json', 'YAML');
    try {
      // maxAliasCount bounds alias expansion (a "billion laughs" document fails instead of growing).
      return parse(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true }) ?? null;
    } catch (error) {
      const e = error as Error & { linePos?: { line: number; col: number }[] };
      const place = e.linePos?.[0];
      throw new PipeworkError(
        'BAD_REQUEST',
        `transform.yaml.json: the input is not valid YAML (${e.message.split('\n')[0]}).`,
        place ? { line: place.line, column: place.col } : {},
      );
    }
  },
);

export const jsonToYaml = defineCommand(
  {
    name: 'transform.json.yaml',
    summary: 'Writes JSON as YAML text.',
    parameters: {},
    input: 'json',
    output: 'text',
    effect: 'read',
    examples: [
      { title: 'JSON to YAML', pipeline: 'body: {name: pen, qty: 2}\npipeline:\n  - transform.json.yaml\n' },
    ],
  },
  (ctx) => stringify(inputJson(ctx.input, 'transform.json.yaml'), { aliasDuplicateObjects: false }),
);
