// transform (PEL templates), CSV, XML and YAML conversions: over HTTP with a body and as pipeline steps.
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

const command = (name: string, params: Record<string, string>, body: string, type = 'text/plain') =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, {
    body,
    type,
    auth: server.adminAuth,
  });

describe('transform', () => {
  it("points an error inside a template to its own line and column, not the template's line 1", async () => {
    const syntax = await pipeline(
      'pipeline:\n  - set.body:\n      value: {a: 1}\n  - data.transform:\n      template: |\n        line one\n        line two #{a +}\n',
    );
    expect(syntax.status).toBe(400);
    expect(syntax.json.value).toMatchObject({
      code: 'PEL_SYNTAX',
      line: 7,
      column: 23,
      commandIndex: 1,
      parameter: 'template',
      expression: '#{a +}',
    });
    expect(String(syntax.json.value.message)).not.toContain("')'");
    const failing = await pipeline(
      'pipeline:\n  - set.body:\n      value: {a: 1}\n  - data.transform: "x #{a} #{nosuch.call()}"\n',
    );
    expect(failing.json.value).toMatchObject({ code: 'PEL_EVAL', line: 4, column: 38 });
  });

  it('renders a template over the body (HTTP), fields as names', async () => {
    const response = await command(
      'transform',
      { template: 'Dear #{name}, you owe #{total * 2} (#{body.name})' },
      JSON.stringify({ name: 'Ann', total: 4 }),
      'application/json',
    );
    expect(response.status).toBe(200);
    expect(response.text).toBe('Dear Ann, you owe 8 (Ann)');
  });

  it('iterates a list with a model name, and data.transform is the same command', async () => {
    const response = await pipeline(`vars:
  unit: EUR
body: [{id: 1, total: 9.5}, {id: 2, total: 20}]
pipeline:
  - data.transform:
      iterate: true
      modelName: order
      template: "Order #{order.id}: #{order.total} #{vars.unit}"
`);
    expect(response.json).toEqual(['Order 1: 9.5 EUR', 'Order 2: 20 EUR']);
  });

  it('gives the value of a template that is one expression', async () => {
    const response = await pipeline(`body: {a: {b: [1, 2]}}
pipeline:
  - transform: "#{a.b}"
`);
    expect(response.json).toEqual([1, 2]);
  });

  it('reads a stored template as the caller, and refuses freemarker', async () => {
    await pipeline(`pipeline:
  - property.schema.put:
      key: global/app/tpl/template/greeting
      value: "Hello #{name}!"
      evalValue: false
`);
    const stored = await pipeline(`body: {name: Bo}
pipeline:
  - transform: "$uri:property:global/app/tpl/template/greeting"
`);
    expect(stored.text).toBe('Hello Bo!');
    const freemarker = await pipeline(`pipeline:
  - transform:
      engine: freemarker
      template: "Hello \${name}"
`);
    expect(codeOf(freemarker)).toBe('PARAM_INVALID');
  });
});

describe('CSV', () => {
  const csv = 'name,qty,note\npen,2,"a, b"\nbook,10,"say ""hi"""\n';

  it("reads CSV into the real product's form over HTTP: rows as lists, or objects, values as text", async () => {
    const response = await command('transform.csv.json', {}, csv);
    expect(response.json).toEqual({
      columnsCount: 3,
      rowsCount: 2,
      headers: ['name', 'qty', 'note'],
      rows: [
        ['pen', '2', 'a, b'],
        ['book', '10', 'say "hi"'],
      ],
    });
    expect(Object.keys(response.json as object)).toEqual(['columnsCount', 'rowsCount', 'headers', 'rows']);
    const objects = await command(
      'transform.csv.json',
      { rowsFormat: 'objects', showRowsCountField: 'false' },
      csv,
    );
    expect(objects.json).toEqual({
      columnsCount: 3,
      headers: ['name', 'qty', 'note'],
      rows: [
        { name: 'pen', qty: '2', note: 'a, b' },
        { name: 'book', qty: '10', note: 'say "hi"' },
      ],
    });
    const lists = await command(
      'transform.csv.json',
      { hasHeadersLine: 'false', delimiter: ';', showColumnsCountField: 'false' },
      'a;b\n1;2;3\n',
    );
    expect(lists.json).toEqual({
      rowsCount: 2,
      rows: [
        ['a', 'b'],
        ['1', '2', '3'],
      ],
    });
    const inRows = await command('transform.csv.json', { showHeadersField: 'false' }, 'a,b\n1,2\n');
    expect(inRows.json).toEqual({
      columnsCount: 2,
      rowsCount: 2,
      rows: [
        ['a', 'b'],
        ['1', '2'],
      ],
    });
  });

  it('refuses objects without a header line, and an unknown rows format', async () => {
    const noHeader = await command(
      'transform.csv.json',
      { hasHeadersLine: 'false', rowsFormat: 'objects' },
      'a\n',
    );
    expect(codeOf(noHeader)).toBe('PARAM_INVALID');
    const unknown = await command('transform.csv.json', { rowsFormat: 'maps' }, 'a\n');
    expect(codeOf(unknown)).toBe('PARAM_INVALID');
  });

  it('round-trips through JSON in a pipeline, formulas guarded', async () => {
    const response = await pipeline(`body: [{name: pen, qty: 2, note: "=HYPERLINK(1)"}, {name: "a,b", qty: 1}]
pipeline:
  - transform.json.csv
`);
    expect(response.text).toBe('name,qty,note\npen,2,"\'=HYPERLINK(1)"\n"a,b",1,');
    const back = await pipeline(`pipeline:
  - transform.json.csv:
      input: [{x: 1, y: "two"}]
      columns: y,x
  - transform.csv.json:
      rowsFormat: objects
  - transform.json.csv
`);
    expect(back.text).toBe('y,x\ntwo,1');
  });

  it('answers a broken CSV with BAD_REQUEST', async () => {
    const response = await command('transform.csv.json', {}, 'a,b\n"unclosed,2\n');
    expect(codeOf(response)).toBe('BAD_REQUEST');
  });
});

describe('XML', () => {
  it('reads XML into JSON over HTTP: attributes as @, repeated elements as lists', async () => {
    const response = await command(
      'transform.xml.json',
      {},
      '<?xml version="1.0"?><order id="7"><item>pen</item><item>book</item><note>a &amp; b</note></order>',
      'application/xml',
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ order: { '@id': '7', item: ['pen', 'book'], note: 'a & b' } });
  });

  it('never expands entities (no external files, no billion laughs)', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    const external = await command('transform.xml.json', {}, xxe, 'application/xml');
    expect(external.text).not.toContain('root:');
    const lol =
      '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;&c;&c;</l>';
    const laughs = await command('transform.xml.json', {}, lol, 'application/xml');
    expect(laughs.text.length).toBeLessThan(500);
  });

  it('writes JSON as XML in a pipeline, escaping text and refusing names that are markup', async () => {
    const response = await pipeline(`body: {order: {"@id": 7, item: [pen, "<b>&"]}}
pipeline:
  - transform.json.xml:
      format: false
`);
    expect(response.text).toBe('<order id="7"><item>pen</item><item>&lt;b&gt;&amp;</item></order>');
    const bad = await pipeline(`body: {"a><evil/": 1}
pipeline:
  - transform.json.xml
`);
    expect(codeOf(bad)).toBe('BAD_REQUEST');
  });

  it('answers malformed XML with BAD_REQUEST and its line', async () => {
    const response = await command('transform.xml.json', {}, '<a>\n<b></a>', 'application/xml');
    expect(codeOf(response)).toBe('BAD_REQUEST');
    expect(response.json.value.message).toContain('line');
  });
});

describe('YAML', () => {
  it('reads YAML into JSON over HTTP and writes it back in a pipeline', async () => {
    const response = await command('transform.yaml.json', {}, 'name: pen\ntags: [a, b]\n', 'text/plain');
    expect(response.json).toEqual({ name: 'pen', tags: ['a', 'b'] });
    const back = await pipeline(`body: {name: pen, qty: 2}
pipeline:
  - transform.json.yaml
`);
    expect(back.text).toBe('name: pen\nqty: 2\n');
  });

  it('refuses an alias bomb and bad YAML', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
      .concat(
        Array.from(
          { length: 8 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
              .fill(`*${String.fromCharCode(97 + i)}`)
              .join(', ')}]`,
        ),
      )
      .join('\n');
    const response = await command('transform.yaml.json', {}, bomb, 'text/plain');
    expect(codeOf(response)).toBe('BAD_REQUEST');
    const bad = await command('transform.yaml.json', {}, 'a: [1, 2\nb: c', 'text/plain');
    expect(codeOf(bad)).toBe('BAD_REQUEST');
  });
});

describe('every conversion, both ways of calling', () => {
  const cases: [string, string, string, unknown][] = [
    [
      'transform.csv.json',
      'a,b\n1,2\n',
      'text/csv',
      { columnsCount: 2, rowsCount: 1, headers: ['a', 'b'], rows: [['1', '2']] },
    ],
    ['transform.json.csv', '[{"a":1,"b":2}]', 'application/json', 'a,b\n1,2'],
    ['transform.xml.json', '<a><b>1</b></a>', 'application/xml', { a: { b: '1' } }],
    ['transform.json.xml', '{"a":{"b":1}}', 'application/json', '<a>\n  <b>1</b>\n</a>\n'],
    ['transform.yaml.json', 'a:\n  b: 1\n', 'text/plain', { a: { b: 1 } }],
    ['transform.json.yaml', '{"a":{"b":1}}', 'application/json', 'a:\n  b: 1\n'],
  ];

  it.each(cases)('%s over HTTP with a body', async (name, body, type, expected) => {
    const response = await command(name, {}, body, type);
    expect(response.status, response.text).toBe(200);
    expect(typeof expected === 'string' ? response.text : response.json).toEqual(expected);
  });

  it.each(cases)('%s as a pipeline step with input', async (name, body, _type, expected) => {
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/json',
      body: JSON.stringify({ vars: { source: body }, pipeline: [{ [name]: { input: '#{vars.source}' } }] }),
    });
    expect(response.status, response.text).toBe(200);
    expect(typeof expected === 'string' ? response.text : response.json).toEqual(expected);
  });
});
