import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';

let server: TestServer;
beforeAll(async () => {
  // a real socket: uploads are streamed through node:http
  server = await startTestServer({ socket: true });
  await server.services.properties.create(await server.services.iam.principalByUsername('admin'), {
    key: 'global/docs/a',
    value: 'doc',
  });
});
afterAll(() => server.close());

const get = (name: string, params: Record<string, unknown>) =>
  callCommand('GET', server.url, name, params, server.adminAuth);
/** POSTs a body produced piece by piece, with backpressure. */
function postStream(
  path: string,
  source: AsyncIterable<Uint8Array>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      {
        method: 'POST',
        headers: { authorization: server.adminAuth, 'content-type': 'application/octet-stream' },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    pipeline(Readable.from(source), req).catch(reject);
  });
}
function pipe(yaml: string): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth: server.adminAuth,
    type: 'application/yaml',
    body: yaml,
  });
}

describe('attachments over HTTP', () => {
  it.each(['GET', 'pipeline'])('put, list, get, content and delete (%s form)', async (form) => {
    const call = (name: string, params: Record<string, string | number>) =>
      form === 'GET' ? get(name, params) : pipe(`pipeline:\n  - ${name}: ${JSON.stringify(params)}\n`);
    const name = `hello-${form}.txt`;
    const put = await call('property.attachment.put', {
      key: 'global/docs/a',
      name,
      content: 'Hello',
      contentType: 'text/plain',
    });
    expect(put.json).toMatchObject({ name, contentType: 'text/plain', length: 5, chunks: 1 });
    expect(
      (await call('property.attachment.list', { key: 'global/docs/a' })).json.map(
        (a: { name: string }) => a.name,
      ),
    ).toContain(name);
    expect((await call('property.attachment.get', { key: 'global/docs/a', name })).json.length).toBe(5);
    const content = await call('property.attachment.content', { key: 'global/docs/a', name });
    expect([content.status, content.text]).toEqual([200, 'Hello']);
    // The streamed GET answers exactly the stored type; the pipeline form adds a charset to text.
    expect(content.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(content.headers.get('content-disposition')).toContain(name);
    const chunk = await call('property.attachment.chunk.get', { key: 'global/docs/a', name, index: 0 });
    expect(chunk.text).toBe('Hello');
    expect((await call('property.attachment.delete', { key: 'global/docs/a', name })).status).toBe(200);
    const gone = await call('property.attachment.delete', { key: 'global/docs/a', name });
    expect([gone.status, codeOf(gone)]).toEqual([404, 'NOT_FOUND']);
    expect(codeOf(await call('property.attachment.content', { key: 'global/docs/a', name }))).toBe(
      'NOT_FOUND',
    );
  });

  it('puts chunks and reads them back (pipeline form)', async () => {
    const yaml = `pipeline:
  - property.attachment.chunk.put: {key: global/docs/a, name: c.txt, content: "ab"}
  - property.attachment.chunk.put: {key: global/docs/a, name: c.txt, content: "cd"}
  - property.attachment.chunk.put: {key: global/docs/a, name: c.txt, content: "AB", index: 0}
  - property.attachment.content: {key: global/docs/a, name: c.txt}
`;
    const response = await pipe(yaml);
    expect(response.text).toBe('ABcd');
    const chunk = await get('property.attachment.chunk.get', {
      key: 'global/docs/a',
      name: 'c.txt',
      index: 1,
    });
    expect(chunk.text).toBe('cd');
    expect(
      (await get('property.attachment.chunk.get', { key: 'global/docs/a', name: 'c.txt', index: 9 })).status,
    ).toBe(200);
    expect(
      codeOf(
        await get('property.attachment.chunk.put', {
          key: 'global/docs/a',
          name: 'c.txt',
          content: 'x',
          index: 9,
        }),
      ),
    ).toBe('PARAM_INVALID');
  });

  it('puts chunks in the GET form too', async () => {
    const params = { key: 'global/docs/a', name: 'g.txt' };
    expect((await get('property.attachment.chunk.put', { ...params, content: 'one' })).json).toMatchObject({
      chunks: 1,
      length: 3,
    });
    expect((await get('property.attachment.chunk.put', { ...params, content: '+two' })).json).toMatchObject({
      chunks: 2,
      length: 7,
    });
    expect((await get('property.attachment.content', params)).text).toBe('one+two');
  });

  it('streams a download of many chunks without piling up listeners on the response', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const total = 24 * 1024 * 1024;
      const upload = await postStream(
        '/api/v3/command/property.attachment.put?key=global/docs/a&name=many.bin',
        (async function* () {
          for (let sent = 0; sent < total; sent += 1024 * 1024) yield new Uint8Array(1024 * 1024).fill(7);
        })(),
      );
      expect(JSON.parse(upload.text)).toMatchObject({ length: total, chunks: 24 });
      const download = await fetch(
        `${server.url}/api/v3/command/property.attachment.content?key=global/docs/a&name=many.bin`,
        { headers: { authorization: server.adminAuth } },
      );
      let length = 0;
      for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) length += chunk.length;
      expect(length).toBe(total);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it.each<[string, string, Record<string, string>, string]>([
    [
      'a missing property (streamed download)',
      'property.attachment.content',
      { key: 'global/docs/none', name: 'a' },
      'PROPERTY_NOT_FOUND',
    ],
    [
      'a hostile key (streamed download)',
      'property.attachment.content',
      { key: 'global/%2e%2e/a', name: 'a' },
      'KEY_INVALID',
    ],
    [
      'a missing name (streamed download)',
      'property.attachment.content',
      { key: 'global/docs/a' },
      'PARAM_INVALID',
    ],
    [
      'a missing property',
      'property.attachment.put',
      { key: 'global/docs/none', name: 'a', content: 'x' },
      'PROPERTY_NOT_FOUND',
    ],
    [
      'a name with a slash',
      'property.attachment.put',
      { key: 'global/docs/a', name: '../a', content: 'x' },
      'PARAM_INVALID',
    ],
    ['a missing name', 'property.attachment.put', { key: 'global/docs/a' }, 'PARAM_INVALID'],
    ['a hostile key', 'property.attachment.list', { key: 'global/../x' }, 'KEY_INVALID'],
    ['a missing attachment', 'property.attachment.get', { key: 'global/docs/a', name: 'nope' }, 'NOT_FOUND'],
  ])('refuses %s', async (_name, command, params, code) => {
    expect(codeOf(await get(command, params))).toBe(code);
  });

  it('streams a 200 MB attachment in and out without holding it in memory', async () => {
    const total = 200 * 1024 * 1024;
    const piece = new Uint8Array(256 * 1024).map((_, i) => (i * 7) & 255);
    const sent = createHash('sha256');
    let produced = 0;
    async function* body() {
      while (produced < total) {
        const chunk = piece.slice();
        chunk[0] = (produced / piece.length) & 255; // every piece differs
        sent.update(chunk);
        produced += chunk.length;
        yield chunk;
      }
    }
    // Live memory only: collect garbage before each sample, so what is counted is what something still holds.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      gc();
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers);
    }, 250);
    try {
      // node:http streams the upload (fetch with a stream body keeps every chunk it sent until the end).
      const upload = await postStream(
        `/api/v3/command/property.attachment.put?key=global/docs/a&name=big.bin`,
        body(),
      );
      expect(upload.status).toBe(200);
      expect(JSON.parse(upload.text)).toMatchObject({ name: 'big.bin', length: total, chunks: 200 });

      const download = await fetch(
        `${server.url}/api/v3/command/property.attachment.content?key=global/docs/a&name=big.bin`,
        {
          headers: { authorization: server.adminAuth },
        },
      );
      expect(download.headers.get('content-length')).toBe(String(total));
      const received = createHash('sha256');
      let length = 0;
      for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
        received.update(chunk);
        length += chunk.length;
      }
      expect(length).toBe(total);
      expect(received.digest('hex')).toBe(sent.digest('hex'));
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThan(80 * 1024 * 1024);
    const inPipeline = await pipe(
      'pipeline:\n  - property.attachment.content: {key: global/docs/a, name: big.bin}\n',
    );
    expect([inPipeline.status, codeOf(inPipeline)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  }, 60_000);
});
