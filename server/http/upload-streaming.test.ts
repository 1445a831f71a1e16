// Uploads of every form as content objects, against the real server: multipart file parts and raw bodies to
// any command, a pipeline posted as multipart, content objects as results; and each kind of bad input
// (no boundary, a part over the limit, no Content-Length, a client gone mid-upload) leaving nothing behind.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';
import { uploadSpoolDir } from './upload-spool';

const MiB = 1024 * 1024;
let server: TestServer;
let adminRoot: string;
beforeAll(async () => {
  // Small limits so that "large" is cheap: bodies in memory up to 1 MiB, one upload up to 4 MiB.
  // a real socket: uploads are streamed and cut off through node:http
  server = await startTestServer({
    socket: true,
    env: { PIPEWORK_MAX_COMMAND_BODY: String(MiB), PIPEWORK_MAX_UPLOAD: String(4 * MiB) },
  });
  const admin = await server.services.iam.principalByUsername('admin');
  adminRoot = join(server.config.dataDir, 'drive', 'users', admin!.uuid);
  await server.services.properties.create(admin, { key: 'global/up/doc', value: 'doc' });
});
afterAll(() => server.close());

const BOUNDARY = 'UploadBoundary4f9a';
type Part = { name: string; filename?: string; type?: string; data: string | Uint8Array };

function multipart(parts: Part[]): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename ? `; filename="${part.filename}"` : '';
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n` +
          `${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const post = (path: string, type: string, body: Uint8Array<ArrayBuffer> | string) =>
  http(server.url, path, { auth: server.adminAuth, type, body });
const spoolFiles = () => {
  const dir = uploadSpoolDir(server.services);
  return existsSync(dir) ? readdirSync(dir) : [];
};
/** Temp files go when the response closes, just after the client has its answer. */
async function expectNoSpoolFiles() {
  for (let i = 0; i < 50 && spoolFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(spoolFiles()).toEqual([]);
}
/** A request whose answer is read as bytes. */
async function fetchBytes(
  path: string,
  init: { type?: string; body?: Uint8Array | string; headers?: object } = {},
) {
  const response = await fetch(server.url + path, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: server.adminAuth,
      ...(init.type ? { 'content-type': init.type } : {}),
      ...init.headers,
    },
    body: init.body as BodyInit | undefined,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: Buffer.from(bytes).toString() };
}
const patterned = (size: number) => new Uint8Array(size).map((_, i) => (i * 7) & 255);

describe('content objects from uploads', () => {
  it('saves every multipart file part of any size to the drive, named by its file name', async () => {
    const big = patterned(3 * MiB); // over the in-memory limit: spooled, then streamed to the drive
    const res = await post(
      '/api/v3/command/drive.save?path=in/',
      MULTIPART,
      multipart([{ name: 'file', filename: 'big.bin', type: 'application/octet-stream', data: big }]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ path: 'in/big.bin', size: big.length });
    const read = await fetchBytes('/api/v3/command/drive.read?path=in/big.bin');
    expect(Buffer.from(read.bytes).equals(Buffer.from(big))).toBe(true);
    await expectNoSpoolFiles();
  });

  it('takes a raw body of any other type as the input of any command, and answers its content object', async () => {
    const data = patterned(2 * MiB);
    const res = await fetchBytes('/api/v3/command/set.body?value=%23%7Bbody%7D', {
      type: 'image/png',
      body: data,
      headers: { 'content-disposition': 'attachment; filename="photo.png"' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-disposition')).toContain('photo.png');
    expect(Buffer.from(res.bytes).equals(Buffer.from(data))).toBe(true);
    await expectNoSpoolFiles();
  });

  it('reads a content object in PEL: name, contentType, contentLength, text and JSON', async () => {
    const json = JSON.stringify({ name: 'Homer' });
    const res = await post(
      '/api/v3/pipeline',
      MULTIPART,
      multipart([
        {
          name: 'pipeline',
          data:
            'pipeline:\n  - set.body:\n      value: "#{body[0].name} #{body[0].contentType} ' +
            '#{body[0].contentLength} #{@json.load(body[0]).name} #{@convert.toString(body[0])}"\n',
        },
        { name: 'file', filename: 'person.json', type: 'application/json', data: json },
      ]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe(`person.json application/json ${json.length} Homer ${json}`);
  });

  it('streams a pipeline multipart upload to an attachment, and a large drive file through a pipeline', async () => {
    const big = patterned(3 * MiB);
    const res = await post(
      '/api/v3/pipeline',
      MULTIPART,
      multipart([
        { name: 'pipeline', data: 'pipeline:\n  - property.attachment.put:\n      key: global/up/doc\n' },
        { name: 'file', filename: 'scan.bin', type: 'application/octet-stream', data: big },
      ]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject([{ name: 'scan.bin', length: big.length }]);
    // A drive file over the in-memory limit is a reference: copied and sent as the result chunk by chunk.
    writeFileSync(join(adminRoot, 'large.bin'), big);
    const copy = await fetchBytes('/api/v3/pipeline', {
      type: 'application/yaml',
      body: 'pipeline:\n  - drive.read: large.bin\n  - drive.save: copy.bin\n  - drive.read: copy.bin\n',
    });
    expect(copy.status, copy.text).toBe(200);
    expect(copy.headers.get('content-length')).toBe(String(big.length));
    expect(copy.headers.get('content-disposition')).toContain('copy.bin');
    expect(Buffer.from(copy.bytes).equals(Buffer.from(big))).toBe(true);
    const inPel = await post(
      '/api/v3/pipeline',
      'application/yaml',
      'pipeline:\n  - drive.read: large.bin\n  - set.body: "#{@convert.toString(body)}"\n',
    );
    expect([inPel.status, inPel.json.value?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('saves a content reference written as JSON under its own name in the folder given', async () => {
    const res = await post(
      '/api/v3/pipeline',
      'application/yaml',
      'vars:\n  doc: {name: hello.txt, contentEncoding: base64, content: SGVsbG8gV29ybGQ=}\n' +
        'pipeline:\n  - drive.save:\n      input: "#{vars.doc}"\n      path: my/folder/\n',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ path: 'my/folder/hello.txt', size: 11 });
  });
});

/** A raw POST written by hand: headers as given, the body in pieces, optionally cut off. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  pieces: Uint8Array[],
  abortAfter?: number,
): Promise<{ status: number; code?: string } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, code: text ? JSON.parse(text).value?.code : undefined }),
      );
    });
    req.on('error', (error) => (abortAfter !== undefined ? resolve('aborted') : reject(error)));
    pieces.forEach((piece, index) => {
      req.write(piece);
      if (index + 1 === abortAfter) setTimeout(() => req.destroy(), 100);
    });
    if (abortAfter === undefined) req.end();
  });
}

describe('bad uploads: a clear error, nothing stored', () => {
  it('refuses multipart without a boundary', async () => {
    const res = await post('/api/v3/command/drive.save?path=nb.bin', 'multipart/form-data', 'x');
    expect([res.status, res.json.value.code]).toEqual([400, 'BAD_REQUEST']);
    expect(existsSync(join(adminRoot, 'nb.bin'))).toBe(false);
  });

  it('refuses a part over the upload limit and keeps nothing of it', async () => {
    const res = await post(
      '/api/v3/command/drive.save?path=over/',
      MULTIPART,
      multipart([{ name: 'file', filename: 'over.bin', data: new Uint8Array(4 * MiB + 1) }]),
    );
    expect([res.status, res.json.value.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(existsSync(join(adminRoot, 'over'))).toBe(false);
    await expectNoSpoolFiles();
  });

  it('answers 411 to a raw upload without Content-Length and 413 to one declaring too much', async () => {
    const chunked = await rawPost('/api/v3/command/set.body', { 'content-type': 'image/png' }, [
      new Uint8Array(1000),
    ]);
    expect(chunked).toEqual({ status: 411, code: 'LENGTH_REQUIRED' });
    const declared = await rawPost(
      '/api/v3/command/set.body',
      { 'content-type': 'image/png', 'content-length': String(5 * MiB) },
      [],
    );
    expect(declared).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('leaves no temp file and no drive file when the client goes away mid-upload', async () => {
    const body = multipart([{ name: 'file', filename: 'cut.bin', data: patterned(3 * MiB) }]);
    const half = body.subarray(0, 2 * MiB);
    const multi = await rawPost(
      '/api/v3/command/drive.save?path=cut/',
      { 'content-type': MULTIPART, 'content-length': String(body.length) },
      [half],
      1,
    );
    expect(multi).toBe('aborted');
    const raw = await rawPost(
      '/api/v3/command/set.body',
      { 'content-type': 'image/png', 'content-length': String(3 * MiB) },
      [patterned(2 * MiB)],
      1,
    );
    expect(raw).toBe('aborted');
    await new Promise((r) => setTimeout(r, 300));
    await expectNoSpoolFiles();
    expect(existsSync(join(adminRoot, 'cut'))).toBe(false);
  });
});
