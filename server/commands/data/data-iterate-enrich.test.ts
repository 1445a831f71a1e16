// data.list.iterate and data.enrich: PEL actions on list items (or pairs of two lists) and on one object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { splitActions } from './do-actions';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pipeline = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

const lists = `
      listA: [{"name": "Max", "allowed": false}, {"name": "Hennah", "allowed": false}]
      listB: [{"name": "Max", "age": 12}, {"name": "Hennah", "age": 23}]`;

describe('data.list.iterate', () => {
  it('runs the actions on the pairs where the condition holds, several actions in order', async () => {
    const response = await pipeline(`pipeline:
  - data.list.iterate:${lists}
      where: "itemA.name == itemB.name and itemB.age > 18"
      do: |
        itemA.allowed = true;
        itemA.note = 'age ' + itemB.age; itemA.shout = itemA.note.toUpperCase()
`);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual([
      { name: 'Max', allowed: false },
      { name: 'Hennah', allowed: true, note: 'age 23', shout: 'AGE 23' },
    ]);
  });

  it('one list from the input is `item` (and `itemA`); a ternary stands for where; output and vars work', async () => {
    const response = await pipeline(`vars:
  limit: 2
pipeline:
  - data.list.iterate:
      input: [{"n": 1}, {"n": 2}, {"n": 3}]
      do: "item.big = item.n > vars.limit; itemA.n = itemA.n * 10"
      output: "#{vars.out}"
  - data.list.iterate:${lists}
      do: "(itemA.name == itemB.name and itemB.age > 18) ? itemA.allowed = true : ''"
  - set.body:
      value: "#{{'ternary': body, 'out': vars.out}}"
`);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      out: [
        { n: 10, big: false },
        { n: 20, big: false },
        { n: 30, big: true },
      ],
      ternary: [
        { name: 'Max', allowed: false },
        { name: 'Hennah', allowed: true },
      ],
    });
  });

  it('refuses a missing do, a non-list and too many pairs (before running any)', async () => {
    const noDo = await pipeline('pipeline:\n  - data.list.iterate:\n      listA: [1]\n');
    expect(codeOf(noDo)).toBe('PARAM_INVALID');
    const notList = await pipeline('pipeline:\n  - data.list.iterate:\n      listA: {"a": 1}\n      do: "item"\n');
    expect(codeOf(notList)).toBe('PARAM_INVALID');
    const huge = await pipeline(`pipeline:
  - data.list.iterate:
      listA: "#{@list.range(0, 2000)}"
      listB: "#{@list.range(0, 2000)}"
      do: "itemA"
`);
    expect(codeOf(huge)).toBe('LIMIT_EXCEEDED');
  });

  it('splits actions at semicolons outside strings and brackets', () => {
    expect(splitActions("a = 'x;y'; b = {1;2}[0];; #{c}")).toEqual(["a = 'x;y'", 'b = {1;2}[0]', 'c']);
  });
});

describe('data.enrich', () => {
  it('adds fields to a copy of the input; vars and body reachable', async () => {
    const response = await pipeline(`vars:
  city: Los Angeles
  address: { "street": "Lincoln Blvd", "zipCode": "90001" }
pipeline:
  - data.enrich:
      input: "#{vars.address}"
      do: "input.city = vars.city; input.zip5 = input.zipCode.length() == 5"
      output: "#{vars.enriched}"
  - set.body:
      value: "#{{'before': vars.address, 'after': vars.enriched}}"
`);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      before: { street: 'Lincoln Blvd', zipCode: '90001' },
      after: { street: 'Lincoln Blvd', zipCode: '90001', city: 'Los Angeles', zip5: true },
    });
  });

  it('points a PEL error in do at the parameter', async () => {
    const response = await pipeline('pipeline:\n  - data.enrich:\n      input: {"a": 1}\n      do: "input.b = ("\n');
    expect(codeOf(response)).toBe('PEL_SYNTAX');
  });
});
