// Every example of the real product's HTTP API guides (commands_pipelines/15_http_api.md and
// propertystore/15_http_api.md), sent as their curl lines send them, against the real server. Where the
// guide's key `some/key` lies outside our key roots, `global/some/key` stands in, and drive paths are
// relative (`my.pdf` for the guide's `/my.pdf`); docs/api.md lists these differences.
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let pdf: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  server = await startTestServer();
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  pdf = new Uint8Array(await doc.save());
});
afterAll(() => server.close());

const auth = () => server.adminAuth;
const yaml = (body: string, path = '/api/v3/pipeline') =>
  http(server.url, path, { auth: auth(), type: 'application/yaml', body });

/** A multipart body as curl -F builds it. */
function multipart(parts: { name: string; filename?: string; type?: string; data: string | Uint8Array }[]) {
  const boundary = '----Boundary7MA4YWxkTrZu0gW';
  const chunks: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(
      enc.encode(head),
      typeof part.data === 'string' ? enc.encode(part.data) : part.data,
      enc.encode('\r\n'),
    );
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('HTTP API for single command calls', () => {
  it('Example 1, no body: GET with request parameters, a null body', async () => {
    // message.send needs a message broker we do not have: the same form on a command we have.
    const missing = await http(server.url, '/api/v3/command/message.send?key=slack&payload=HELLO', {
      auth: auth(),
    });
    expect([missing.status, missing.json.value.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
    const log = await http(server.url, '/api/v3/command/log?message=HELLO', { auth: auth() });
    expect(log.status).toBe(200);
    const nothing = await http(server.url, '/api/v3/command/set.body?value=null', { auth: auth() });
    expect([nothing.status, nothing.text]).toEqual([200, '']);
  });

  it('Example 2, JSON in the body: property.put stores the parsed JSON document', async () => {
    // property.put changes an existing property (the spec); property.schema.put creates it.
    await http(server.url, '/api/v3/command/property.schema.put?path=global/some/key', {
      auth: auth(),
      method: 'POST',
    });
    const put = await http(server.url, '/api/v3/command/property.put?key=global/some/key', {
      auth: auth(),
      type: 'application/json',
      body: '{"name": "someValue"}',
    });
    expect(put.status).toBe(200);
    const value = await http(server.url, '/api/v3/command/property.value.get?path=global/some/key', {
      auth: auth(),
    });
    expect(value.json).toEqual({ name: 'someValue' });
  });

  it('Example 3, binary data in the body: property.attachment.put with application/pdf', async () => {
    const put = await http(
      server.url,
      '/api/v3/command/property.attachment.put?key=global/some/key&name=my.pdf',
      {
        auth: auth(),
        type: 'application/pdf',
        body: pdf,
      },
    );
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ name: 'my.pdf', contentType: 'application/pdf', length: pdf.length });
  });

  it('Example 4, multipart body: each file part becomes an attachment', async () => {
    const { body, type } = multipart([
      { name: 'file', filename: 'my1.pdf', type: 'application/pdf', data: pdf },
      { name: 'file', filename: 'my2.pdf', type: 'application/pdf', data: 'second' },
    ]);
    const put = await http(server.url, '/api/v3/command/property.attachment.put?key=global/some/key', {
      auth: auth(),
      type,
      body,
    });
    expect(put.status).toBe(200);
    expect(put.json.map((a: { name: string }) => a.name)).toEqual(['my1.pdf', 'my2.pdf']);
    const listed = await http(server.url, '/api/v3/command/property.attachment.list?path=global/some/key', {
      auth: auth(),
    });
    expect(listed.json.map((a: { name: string }) => a.name).sort()).toEqual(['my.pdf', 'my1.pdf', 'my2.pdf']);
    const second = await http(
      server.url,
      '/api/v3/command/property.attachment.content?key=global/some/key&name=my2.pdf',
      { auth: auth() },
    );
    expect(second.text).toBe('second');
  });

  it('multipart to any command: the file parts are a content collection in the body', async () => {
    const { body, type } = multipart([
      { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'hello' },
    ]);
    const saved = await http(server.url, '/api/v3/command/drive.save?path=upload/a.txt', {
      auth: auth(),
      type,
      body,
    });
    expect(saved.status).toBe(200);
    const read = await http(server.url, '/api/v3/command/drive.read?path=upload/a.txt', { auth: auth() });
    expect(read.text).toBe('hello');
  });
});

describe('HTTP API for adhoc pipeline calls', () => {
  it('Example 5, YAML without body: drive.read, pdf.stamp, drive.save', async () => {
    await http(server.url, '/api/v3/command/drive.save?path=my.pdf', {
      auth: auth(),
      type: 'application/pdf',
      body: pdf,
    });
    const run = await yaml(
      'pipeline:\n - drive.read:\n     path: my.pdf\n - pdf.stamp:\n     text: "Hello World!"\n - drive.save:\n     path: my-stamped.pdf\n',
    );
    expect(run.status).toBe(200);
    const stamped = await http(server.url, '/api/v3/command/drive.read?path=my-stamped.pdf', {
      auth: auth(),
    });
    expect(stamped.status).toBe(200);
    expect(stamped.headers.get('content-type')).toContain('application/pdf');
    expect(stamped.text.startsWith('%PDF-')).toBe(true);
  });

  it('Example 6, body embedded in the YAML', async () => {
    const run = await yaml(
      'pipeline:\n  - log:\n      message: "BODY: #{body.text}"\n\nbody: {"text": "Hello World!"}',
    );
    expect([run.status, run.json]).toEqual([200, { text: 'Hello World!' }]);
  });

  it('no Content-Type: the body is read as YAML', async () => {
    const run = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      body: 'pipeline:\n  - set.body:\n      value: yaml\n',
      headers: { 'content-type': '' },
    });
    expect([run.status, run.text]).toEqual([200, 'yaml']);
  });

  it('JSON pipeline document', async () => {
    const run = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'application/json',
      body: JSON.stringify({ pipeline: [{ 'set.body': { value: 'json' } }] }),
    });
    expect(run.text).toBe('json');
  });

  it('Example 7, url-encoded pipeline, exactly as the guide encodes it', async () => {
    const run = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'application/x-www-form-urlencoded',
      body: 'datetime=format%3Add.MM.YY&set.body=value%3A%20%22Today%20is%3A%20%23%7Bbody%7D%22',
    });
    // The guide's `YY` (Java's week-based year) reaches datetime as written: the form was read right.
    const format = run.status === 200 ? run.text : run.json.value.message;
    expect(format).toMatch(/^Today is: \d\d\.\d\d\.\d\d$|'dd\.MM\.YY'/);
    const same = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'application/x-www-form-urlencoded',
      body: 'datetime=format%3Add.MM.yy&set.body=value%3A%20%22Today%20is%3A%20%23%7Bbody%7D%22',
    });
    expect([same.status, same.text]).toEqual([200, expect.stringMatching(/^Today is: \d\d\.\d\d\.\d\d$/)]);
  });

  it.each([
    ['log=message:HELLO WORLD', 200],
    ["log='HELLO WORLD'", 200],
    ['log="HELLO WORLD"', 200],
    ["log=message:'HELLO WORLD';level:INFO&datetime", 200],
    ["log=message:'HELLO WORLD';level:INFO&datetime=format:dd.MM.yy", 200],
  ])('the url-encoded forms of the guide: %s', async (form, status) => {
    const body = new URLSearchParams(
      form.split('&').map((pair) => {
        const eq = pair.indexOf('=');
        return eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
      }),
    ).toString();
    const run = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'application/x-www-form-urlencoded',
      body,
    });
    expect(run.status).toBe(status);
  });

  it('the url-encoded form: an unterminated quote is PIPELINE_SYNTAX', async () => {
    const run = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ 'set.body': 'value:"Today is' }).toString(),
    });
    expect([run.status, run.json.value.code]).toEqual([400, 'PIPELINE_SYNTAX']);
  });

  it('Example 8, multipart: a pipeline part and a file part as the body', async () => {
    const { body, type } = multipart([
      {
        name: 'pipeline',
        data: 'pipeline:\n - pdf.stamp:\n     text: "Hello World!"\n - drive.save:\n     path: my-stamped-2.pdf ',
      },
      { name: 'file', filename: 'my1.pdf', type: 'application/pdf', data: pdf },
    ]);
    const run = await http(server.url, '/api/v3/pipeline', { auth: auth(), type, body });
    expect(run.status).toBe(200);
    const stamped = await http(server.url, '/api/v3/command/drive.read?path=my-stamped-2.pdf', {
      auth: auth(),
    });
    expect(stamped.text.startsWith('%PDF-')).toBe(true);
  });

  it('GET on /api/v3/pipeline is an error', async () => {
    const get = await http(server.url, '/api/v3/pipeline', { auth: auth() });
    expect([get.status, get.json.value.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });
});

describe('HTTP API for persisted pipeline calls', () => {
  it('Example 10 then 9: store a pipeline with PUT, run it with POST by key and by uuid', async () => {
    const stored = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/newpipeline', {
      auth: auth(),
      method: 'PUT',
      type: 'application/yaml',
      body: 'pipeline:\n    - log:\n        message: "HELLO WORLD!"\n    - set.body:\n        value: "#{vars.who}"',
    });
    expect(stored.status).toBe(200);
    expect(stored.json.property.type).toBe('application/yaml;type=pipeline');
    const run = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/newpipeline?who=carol', {
      auth: auth(),
      method: 'POST',
    });
    expect([run.status, run.text]).toEqual([200, 'carol']);
    const byUuid = await http(server.url, `/api/v3/pipeline:uuid:${stored.json.property.uuid}?who=dave`, {
      auth: auth(),
      method: 'POST',
    });
    expect(byUuid.text).toBe('dave');
  });

  it('the request body becomes the pipeline body: JSON parsed, anything else a content object', async () => {
    await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/echo', {
      auth: auth(),
      method: 'PUT',
      type: 'application/json',
      body: JSON.stringify({ pipeline: [{ log: { message: 'echo' } }] }),
    });
    const json = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/echo', {
      auth: auth(),
      type: 'application/json',
      body: '{"a": 1}',
    });
    expect(json.json).toEqual({ a: 1 });
    const bytes = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/echo', {
      auth: auth(),
      type: 'application/pdf',
      body: pdf,
    });
    expect(bytes.headers.get('content-type')).toBe('application/pdf');
    expect(new TextEncoder().encode(bytes.text).length).toBeGreaterThan(0);
  });

  it('PUT of an url-encoded pipeline stores it as YAML; an invalid one stores nothing', async () => {
    const put = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/form', {
      auth: auth(),
      method: 'PUT',
      type: 'application/x-www-form-urlencoded',
      body: 'set.body=value%3A%22from%20form%22',
    });
    expect(put.status).toBe(200);
    expect(put.json.property.value).toContain('set.body');
    const run = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/form', {
      auth: auth(),
      method: 'POST',
    });
    expect(run.text).toBe('from form');

    for (const [type, body, code] of [
      ['application/yaml', 'pipeline:\n  - no.such.command: 1\n', 'COMMAND_NOT_FOUND'],
      ['application/yaml', 'pipeline: [\n', 'PIPELINE_SYNTAX'],
      ['application/x-www-form-urlencoded', 'log=message%3A%22open', 'PIPELINE_SYNTAX'],
    ]) {
      const bad = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/bad', {
        auth: auth(),
        method: 'PUT',
        type,
        body,
      });
      expect([bad.status, bad.json.value.code]).toEqual([code === 'COMMAND_NOT_FOUND' ? 404 : 400, code]);
    }
    const exists = await http(
      server.url,
      '/api/v3/command/property.exists?path=global/app/myapp/pipeline/bad',
      {
        auth: auth(),
      },
    );
    expect(exists.json).toBe(false);
  });

  it('a missing pipeline is PROPERTY_NOT_FOUND; GET is METHOD_NOT_ALLOWED', async () => {
    const missing = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/none', {
      auth: auth(),
      method: 'POST',
    });
    expect([missing.status, missing.json.value.code]).toEqual([404, 'PROPERTY_NOT_FOUND']);
    const get = await http(server.url, '/api/v3/pipeline:global/app/myapp/pipeline/newpipeline', {
      auth: auth(),
    });
    expect(get.json.value.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('property store HTTP API (propertystore/15_http_api.md): the property.* commands over HTTP', () => {
  it('puts, gets and lists a property through the command endpoint', async () => {
    const put = await http(server.url, '/api/v3/command/property.schema.put?path=global/ps/one&value=1', {
      auth: auth(),
      method: 'POST',
    });
    expect(put.status).toBe(200);
    const listed = await http(server.url, '/api/v3/command/property.list?pattern=global/ps/**', {
      auth: auth(),
    });
    expect(listed.json.map((p: { key: string }) => p.key)).toEqual(['global/ps/one']);
  });
});

describe('bad multipart input', () => {
  it('a multipart body without its boundary is BAD_REQUEST', async () => {
    const res = await http(server.url, '/api/v3/command/property.attachment.put?key=global/some/key', {
      auth: auth(),
      type: 'multipart/form-data',
      body: 'no boundary here',
    });
    expect([res.status, res.json.value.code]).toEqual([400, 'BAD_REQUEST']);
    const pipeline = await http(server.url, '/api/v3/pipeline', {
      auth: auth(),
      type: 'multipart/form-data',
      body: 'x',
    });
    expect([pipeline.status, pipeline.json.value.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('a bad part after a good one: the upload adds none of its attachments', async () => {
    await http(server.url, '/api/v3/command/property.schema.put?path=global/half/key', {
      auth: auth(),
      method: 'POST',
    });
    const { body, type } = multipart([
      { name: 'file', filename: 'good.pdf', type: 'application/pdf', data: pdf },
      { name: 'file', filename: `${'n'.repeat(300)}.pdf`, type: 'application/pdf', data: 'x' },
    ]);
    const res = await http(server.url, '/api/v3/command/property.attachment.put?path=global/half/key', {
      auth: auth(),
      type,
      body,
    });
    expect([res.status, res.json.value.code]).toEqual([400, 'PARAM_INVALID']);
    const listed = await http(server.url, '/api/v3/command/property.attachment.list?path=global/half/key', {
      auth: auth(),
    });
    expect(listed.json).toEqual([]);
  });

  it('a part over the limit is PAYLOAD_TOO_LARGE and nothing is saved', async () => {
    const small = await startTestServer({
      env: { PIPEWORK_MAX_COMMAND_BODY: '1000', PIPEWORK_MAX_UPLOAD: '1000' },
    });
    try {
      const { body, type } = multipart([
        { name: 'file', filename: 'big.txt', type: 'text/plain', data: 'x'.repeat(2000) },
      ]);
      const res = await http(small.url, '/api/v3/command/drive.save?path=big.txt', {
        auth: small.adminAuth,
        type,
        body,
      });
      expect([res.status, res.json.value.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      const exists = await http(small.url, '/api/v3/command/drive.exists?path=big.txt', {
        auth: small.adminAuth,
      });
      expect(exists.json).toBe(false);
      const pipeline = multipart([
        { name: 'pipeline', data: 'pipeline:\n  - drive.save:\n      path: big2.txt\n' },
        { name: 'file', filename: 'big.txt', type: 'text/plain', data: 'x'.repeat(2000) },
      ]);
      const run = await http(small.url, '/api/v3/pipeline', { auth: small.adminAuth, ...pipeline });
      expect([run.status, run.json.value.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    } finally {
      await small.close();
    }
  });
});
