// data.mapping, data.list.filter and data.list.sort: as a command over HTTP (body as input) and as pipeline steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pipeline = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

/** A command called over HTTP with a JSON body as its input. */
const command = (name: string, params: Record<string, string>, body: unknown) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, {
    body: JSON.stringify(body),
    type: 'application/json',
    auth: server.adminAuth,
  });

const customer = { firstName: 'Sam', lastName: 'Smith', age: 34 };

describe('data.mapping', () => {
  it('maps by rules over HTTP, creating nested targets', async () => {
    const response = await command(
      'data.mapping',
      {
        rules: "firstName + ' ' + lastName -> customer.name,\nage -> customer.age,\nage >= 18 -> customer.isLegalAge\n",
      },
      customer,
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ customer: { name: 'Sam Smith', age: 34, isLegalAge: true } });
  });

  it('maps each item with iterate, reaches vars, writes lists and output', async () => {
    const response = await pipeline(`vars:
  currency: EUR
body:
  - {sku: a1, qty: 2, price: 1.5}
  - {sku: b2, qty: 1, price: 10}
pipeline:
  - data.mapping:
      iterate: true
      output: "#{vars.lines}"
      rules: |
        sku -> id
        qty * price -> amount.value
        vars.currency -> amount.currency
        #{sku.toUpperCase()} -> tags[1]
  - set.body: "#{vars.lines}"
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { id: 'a1', amount: { value: 3, currency: 'EUR' }, tags: [null, 'A1'] },
      { id: 'b2', amount: { value: 10, currency: 'EUR' }, tags: [null, 'B2'] },
    ]);
  });

  it('maps JSON given as text in input as that document; other text stays text', async () => {
    const response = await pipeline(`pipeline:
  - data.mapping:
      input: |
        {"firstName": "Sam", "age": 34}
      rules: |
        firstName -> name,
        age >= 18 -> adult
      output: "#{vars.fromJson}"
  - data.mapping:
      input: "{not json"
      rules: "'kept' -> text"
  - set.body: "#{vars.fromJson.name + ' ' + vars.fromJson.adult + ' ' + body.text}"
vars:
  fromJson: null
`);
    expect(response.text).toBe('Sam true kept');
  });

  it('refuses a malformed rule, a bad target and an unsafe target', async () => {
    for (const rules of ['just text', 'age -> a..b', 'age -> __proto__.polluted', 'age -> constructor.prototype.x']) {
      const response = await command('data.mapping', { rules }, customer);
      expect(response.status, rules).toBe(400);
      expect(codeOf(response), rules).toBe('PARAM_INVALID');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('places a PEL error in the rule', async () => {
    const response = await command('data.mapping', { rules: 'age +* 2 -> x' }, customer);
    expect(codeOf(response)).toBe('PEL_SYNTAX');
  });
});

describe('data.list.filter', () => {
  const orders = [
    { id: 1, status: 'open', total: 5 },
    { id: 2, status: 'done', total: 50 },
    { id: 3, status: 'open', total: 70 },
  ];

  it('keeps matching items over HTTP', async () => {
    const response = await command('data.list.filter', { filter: "status == 'open' and total > 10" }, orders);
    expect(response.json).toEqual([{ id: 3, status: 'open', total: 70 }]);
  });

  it('reads vars in the condition in a pipeline', async () => {
    const response = await pipeline(`vars:
  min: 6
body: ${JSON.stringify(orders)}
pipeline:
  - data.list.filter: "#{total >= vars.min}"
  - set.body: "#{body.![id]}"
`);
    expect(response.json).toEqual([2, 3]);
  });

  it('refuses a body that is not a list', async () => {
    const response = await command('data.list.filter', { filter: 'true' }, { a: 1 });
    expect(codeOf(response)).toBe('PARAM_INVALID');
  });
});

describe('data.list.sort', () => {
  const people = [
    { name: 'item 10', age: 30 },
    { name: 'Item 2', age: null },
    { name: 'item 1', age: 25 },
    { name: 'ann', age: 30 },
  ];

  it('sorts by a key, stable, empty keys last, over HTTP', async () => {
    const response = await command('data.list.sort', { by: 'age', order: 'desc' }, people);
    expect(response.json.map((p: { name: string }) => p.name)).toEqual(['item 10', 'ann', 'item 1', 'Item 2']);
  });

  it('sorts text naturally when asked, in a pipeline', async () => {
    const response = await pipeline(`body: ${JSON.stringify(people)}
pipeline:
  - data.list.sort:
      by: name
      natural: true
  - set.body: "#{body.![name]}"
`);
    expect(response.json).toEqual(['ann', 'item 1', 'Item 2', 'item 10']);
  });

  it('sorts plain values without a key', async () => {
    const response = await command('data.list.sort', {}, [3, 1, 2]);
    expect(response.json).toEqual([1, 2, 3]);
  });
});
