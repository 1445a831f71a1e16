import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

/** ann and ben are developers (every drive.* permission): only the folder rules stand between them. */
let server: TestServer;
let ann: string;
let ben: string;
let annUuid: string;

beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  annUuid = (await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] })).uuid;
  await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
});
afterAll(() => server.close());

const call = (form: CommandForm, name: string, params: Record<string, unknown>, auth = ann) =>
  callCommand(form, server.url, name, params, auth);
const pipe = (yaml: string, auth = ann): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });
const upload = (
  path: string,
  body: string | Uint8Array<ArrayBuffer>,
  type = 'application/octet-stream',
  auth = ann,
) => http(server.url, `/api/v3/command/drive.save?path=${encodeURIComponent(path)}`, { auth, type, body });

describe('drive commands over HTTP and in pipelines', () => {
  it('uploads a body of any content type and downloads it with type, length and name', async () => {
    const pdfLike = new Uint8Array([37, 80, 68, 70, 0, 1, 2, 255]);
    const saved = await upload('docs/a.pdf', pdfLike, 'application/pdf');
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      name: 'a.pdf',
      path: 'docs/a.pdf',
      type: 'file',
      size: 8,
      mimeType: 'application/pdf',
    });
    // a JSON body is stored as it came, not parsed
    expect((await upload('docs/data.json', '{"a": 1}', 'application/json')).json.size).toBe(8);

    const read = await fetch(`${server.url}/api/v3/command/drive.read?path=docs/a.pdf`, {
      headers: { authorization: ann },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/pdf');
    expect(read.headers.get('content-length')).toBe('8');
    expect(read.headers.get('content-disposition')).toBe('attachment; filename=a.pdf');
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(pdfLike);
    const json = await http(server.url, '/api/v3/command/drive.read?path=docs/data.json', { auth: ann });
    expect(json.text).toBe('{"a": 1}');
  });

  it('answers range requests with 206 and a range outside the file with 416', async () => {
    await upload('docs/digits.txt', '0123456789', 'text/plain');
    const part = await fetch(`${server.url}/api/v3/command/drive.read?path=docs/digits.txt`, {
      headers: { authorization: ann, range: 'bytes=2-5' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('2345');
    const tail = await fetch(`${server.url}/api/v3/command/drive.read?path=docs/digits.txt`, {
      headers: { authorization: ann, range: 'bytes=-3' },
    });
    expect([tail.status, await tail.text()]).toEqual([206, '789']);
    const outside = await http(server.url, '/api/v3/command/drive.read?path=docs/digits.txt', {
      auth: ann,
      headers: { range: 'bytes=100-200' },
    });
    expect([outside.status, codeOf(outside)]).toEqual([416, 'RANGE_NOT_SATISFIABLE']);
    expect(outside.headers.get('content-range')).toBe('bytes */10');
  });

  it.each<CommandForm>(['GET', 'pipeline'])(
    'lists, checks, makes folders, copies, moves and deletes (%s form)',
    async (form) => {
      const base = `work-${form}`;
      await upload(`${base}/in/report.txt`, 'report');
      expect((await call(form, 'drive.exists', { path: `${base}/in/report.txt` })).json).toBe(true);
      expect((await call(form, 'drive.exists', { path: `${base}/in/nope.txt` })).json).toBe(false);

      const made = await call(form, 'drive.mkdir', { path: `${base}/out/deep`, recurse: true });
      expect(made.json).toMatchObject({ type: 'folder', path: `${base}/out/deep` });
      const noParent = await call(form, 'drive.mkdir', { path: `${base}/missing/child` });
      expect([noParent.status, codeOf(noParent)]).toEqual([404, 'NOT_FOUND']);

      const copied = await call(form, 'drive.copy', { path: `${base}/in/report.txt`, to: `${base}/out` });
      expect(copied.json).toMatchObject({ path: `${base}/out/report.txt`, size: 6 });
      const movedFolder = await call(form, 'drive.move', { path: `${base}/out/deep`, to: `${base}/in` });
      expect(movedFolder.json).toMatchObject({ path: `${base}/in/deep`, type: 'folder' });
      const intoItself = await call(form, 'drive.move', { path: `${base}/in`, to: `${base}/in/deep` });
      expect(codeOf(intoItself)).toBe('PARAM_INVALID');

      const listed = await call(form, 'drive.list', { path: `${base}/in` });
      expect(listed.json.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([
        ['deep', 'folder'],
        ['report.txt', 'file'],
      ]);
      expect((await call(form, 'drive.delete', { path: `${base}/in` })).json).toEqual({
        path: `${base}/in`,
        deleted: true,
      });
      expect((await call(form, 'drive.delete', { path: `${base}/in` })).json).toEqual({
        path: `${base}/in`,
        deleted: false,
      });
      expect((await call(form, 'drive.exists', { path: `${base}/in/report.txt` })).json).toBe(false);
      const gone = await call(form, 'drive.read', { path: `${base}/in/report.txt` });
      expect([gone.status, codeOf(gone)]).toEqual([404, 'NOT_FOUND']);
    },
  );

  it('saves and reads as pipeline steps (text, JSON, bytes through the body)', async () => {
    const result = await pipe(
      'pipeline:\n' +
        '  - set.body: {value: {"total": 3}}\n' +
        '  - drive.save: steps/data.json\n' +
        '  - drive.read: steps/data.json\n' +
        '  - drive.save: {path: steps/copy.json, cleanupBody: false}\n',
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(result.text)).toEqual({ total: 3 });
    const entry = await pipe('pipeline:\n  - set.body: hello\n  - drive.save: steps/hello.txt\n');
    expect(entry.json).toMatchObject({ name: 'hello.txt', size: 5, mimeType: 'text/plain' });
    const empty = await pipe('pipeline:\n  - drive.save: steps/empty.txt\n');
    expect(codeOf(empty)).toBe('BAD_REQUEST');
  });

  it('keeps users apart: own folder, the shared one for all, other users only for admins', async () => {
    await upload('private/note.txt', 'ann only');
    await upload('shared/team/note.txt', 'for everyone');
    // ben's own folder has no such file
    const benOwn = await call('GET', 'drive.read', { path: 'private/note.txt' }, ben);
    expect(codeOf(benOwn)).toBe('NOT_FOUND');
    const benIntoAnn = await call('GET', 'drive.read', { path: `user/${annUuid}/private/note.txt` }, ben);
    expect([benIntoAnn.status, codeOf(benIntoAnn)]).toEqual([403, 'FORBIDDEN']);
    const benWrite = await upload(`user/${annUuid}/private/note.txt`, 'overwritten', 'text/plain', ben);
    expect(codeOf(benWrite)).toBe('FORBIDDEN');
    expect((await call('GET', 'drive.read', { path: 'shared/team/note.txt' }, ben)).text).toBe(
      'for everyone',
    );
    const admin = await call(
      'GET',
      'drive.read',
      { path: `user/${annUuid}/private/note.txt` },
      server.adminAuth,
    );
    expect(admin.text).toBe('ann only');
    expect((await call('GET', 'drive.read', { path: `user/${annUuid}/private/note.txt` })).text).toBe(
      'ann only',
    );
  });

  it('needs the drive permission', async () => {
    await server.services.iam.createUser({ username: 'una', password: 'una-pw', roles: ['ROLE_USER'] });
    const response = await call('GET', 'drive.list', { path: '' }, server.basicAuth('una', 'una-pw'));
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('files and folders in the way', () => {
  it.each<[string, string, Record<string, unknown>]>([
    ['a save below a file', 'drive.save', { path: 'way/file.txt/inner.txt' }],
    ['a save onto a folder', 'drive.save', { path: 'way' }],
    ['a folder where a file is', 'drive.mkdir', { path: 'way/file.txt' }],
    ['a folder below a file', 'drive.mkdir', { path: 'way/file.txt/sub', recurse: true }],
    ['a copy into a file', 'drive.copy', { path: 'way/other.txt', to: 'way/file.txt' }],
    ['a folder moved onto a folder', 'drive.move', { path: 'way/sub', to: 'elsewhere' }],
  ])('refuses %s with CONFLICT', async (_what, command, params) => {
    await upload('way/file.txt', 'file');
    await upload('way/other.txt', 'other');
    await upload('way/sub/a.txt', 'a');
    await upload('elsewhere/sub/b.txt', 'b');
    const response =
      command === 'drive.save'
        ? await upload(String(params.path), 'x')
        : await call('pipeline', command, params);
    expect([response.status, codeOf(response)]).toEqual([409, 'CONFLICT']);
  });
});
