import { describe, expect, test } from 'vitest';
import { parsePipeline } from '../../../shared/pipeline/parse-pipeline';
import { planStepInsertion, type StepToInsert } from './insert-step';

const PUT: StepToInsert = { command: 'property.put', params: [['key', '<key>']] };
const LOG: StepToInsert = { command: 'log', params: [] };

function insert(text: string, at: string | number, step = PUT, form: 'yaml' | 'json' = 'yaml') {
  const offset = typeof at === 'number' ? at : text.indexOf(at);
  const line = text.slice(0, offset).split('\n').length;
  const plan = planStepInsertion(text, form, { offset, line }, step)!;
  const next = plan.replaceAll ? plan.text : text.slice(0, plan.offset) + plan.text + text.slice(plan.offset);
  return { next, cursor: plan.cursor, commands: parsePipeline(next, form).steps.map((s) => s.command) };
}

const YAML = `vars:
  a: 1 # a comment
pipeline:
  - set.var:
      key: x
      value: 1
  - log: "mid #{vars.x}"
  - set.body:
      value: |
        text
`;

describe('planStepInsertion (YAML)', () => {
  test('after the step the cursor is in, even with the cursor mid-line', () => {
    const { next, commands } = insert(YAML, 'ey: x');
    expect(commands).toEqual(['set.var', 'property.put', 'log', 'set.body']);
    expect(next).toContain('      value: 1\n  - property.put:\n      key: "<key>"\n  - log:');
    expect(next).toContain('# a comment');
  });

  test('the cursor lands on the first placeholder', () => {
    const { next, cursor } = insert(YAML, 'mid');
    expect(next.slice(cursor, cursor + 7)).toBe('"<key>"');
  });

  test('after a block scalar; outside the list at its end; before the first step from its key line', () => {
    expect(insert(YAML, 'text').commands).toEqual(['set.var', 'log', 'set.body', 'property.put']);
    expect(insert(YAML, 'a: 1').commands).toEqual(['set.var', 'log', 'set.body', 'property.put']);
    expect(insert(YAML, 'pipeline:').commands).toEqual(['property.put', 'set.var', 'log', 'set.body']);
  });

  test("keeps the list's own indentation", () => {
    const text = 'pipeline:\n- log: a\n- log: b\n';
    const { next } = insert(text, 'a', LOG);
    expect(next).toBe('pipeline:\n- log: a\n- log\n- log: b\n');
  });

  test('a text without pipeline gets one; an empty pipeline gets its first step; no final newline', () => {
    expect(insert('vars:\n  a: 1', 3).next).toBe(
      'vars:\n  a: 1\npipeline:\n  - property.put:\n      key: "<key>"\n',
    );
    expect(insert('pipeline:\n', 0, LOG).next).toBe('pipeline:\n  - log\n');
    expect(insert('pipeline: []\n', 0, LOG).commands).toEqual(['log']);
    expect(insert('pipeline:\n  - log: a', 15, LOG).next).toBe('pipeline:\n  - log: a\n  - log\n');
  });

  test('a text that does not parse gets the step at the start of the next line', () => {
    const text = 'pipeline:\n  - log: "open\n  - x: [\n';
    const offset = text.indexOf('open') + 2;
    const plan = planStepInsertion(text, 'yaml', { offset, line: 2 }, LOG)!;
    expect(plan.offset).toBe(text.indexOf('\n', offset) + 1);
  });
});

describe('planStepInsertion (JSON)', () => {
  test('after the step the cursor is in, written again with two spaces', () => {
    const text = JSON.stringify(
      { pipeline: [{ log: { message: 'a' } }, { 'set.body': { value: 1 } }] },
      null,
      2,
    );
    const { next, cursor, commands } = insert(text, '"a"', PUT, 'json');
    expect(commands).toEqual(['log', 'property.put', 'set.body']);
    expect(next.slice(cursor, cursor + 16)).toBe('{\n      "propert');
  });
});
