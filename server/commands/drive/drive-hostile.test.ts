import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

let server: TestServer;
let ann: string;
let annRoot: string;
let benRoot: string;
let outside: string;

beforeAll(async () => {
  // a real socket: uploads are cut off mid-body through node:http
  server = await startTestServer({ socket: true, env: { PIPEWORK_MAX_DRIVE_FILE: '1000' } });
  const { iam } = server.services;
  const a = await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  const b = await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  annRoot = join(server.config.dataDir, 'drive', 'users', a.uuid);
  benRoot = join(server.config.dataDir, 'drive', 'users', b.uuid);
  outside = mkdtempSync(join(tmpdir(), 'pipework-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'outside the drive');
  mkdirSync(annRoot, { recursive: true });
  mkdirSync(benRoot, { recursive: true });
  writeFileSync(join(benRoot, 'ben.txt'), 'ben only');
  // Links a local user (not the API: it makes none) could have left in ann's folder.
  symlinkSync(outside, join(annRoot, 'escape'));
  symlinkSync(join(outside, 'secret.txt'), join(annRoot, 'secret-link.txt'));
  symlinkSync(benRoot, join(annRoot, 'ben'));
  symlinkSync(join(outside, 'not-there-yet.txt'), join(annRoot, 'dangling.txt'));
  mkdirSync(join(annRoot, 'inner'));
  writeFileSync(join(annRoot, 'inner', 'ok.txt'), 'fine');
  symlinkSync(join(annRoot, 'inner'), join(annRoot, 'inner-link'));
});
afterAll(async () => {
  await server.close();
  rmSync(outside, { recursive: true, force: true });
});

const call = (form: CommandForm, name: string, params: Record<string, unknown>) =>
  callCommand(form, server.url, name, params, ann);

describe('drive paths that leave the root', () => {
  const spellings: [string, string][] = [
    ['parent segment', '../x.txt'],
    ['parent segment deeper', 'a/../../x.txt'],
    ['parent segment at the end', 'a/..'],
    ['dot segment', 'a/./x.txt'],
    ['absolute', '/etc/passwd'],
    ['windows drive', 'C:/Windows/win.ini'],
    ['home', '~/x.txt'],
    ['percent-encoded dots', '%2e%2e/x.txt'],
    ['percent-encoded slash', '..%2fx.txt'],
    ['upper-case percent-encoding', '%2E%2E%2Fetc%2Fpasswd'],
    ['double percent-encoding', '%252e%252e/x.txt'],
    ['backslash', '..\\x.txt'],
    ['backslash inside', 'a\\b.txt'],
    ['NUL', 'a.txt\u0000.pdf'],
    ['newline', 'a\n.txt'],
    ['empty segment', 'a//b.txt'],
    ['another user without a uuid', 'user/'],
  ];
  it.each(
    spellings.flatMap(([what, path]) =>
      (['GET', 'pipeline'] as CommandForm[]).map((form) => [what, form, path]),
    ),
  )('refuses %s (%s form)', async (_what, form, path) => {
    for (const command of ['drive.read', 'drive.list', 'drive.exists', 'drive.delete', 'drive.mkdir']) {
      const response = await call(form as CommandForm, command, { path });
      expect([response.status, codeOf(response), response.json?.value?.parameter]).toEqual([
        400,
        'PARAM_INVALID',
        'path',
      ]);
    }
    const copy = await call(form as CommandForm, 'drive.copy', { path: 'inner/ok.txt', to: path });
    expect([codeOf(copy), copy.json?.value?.parameter]).toEqual(['PARAM_INVALID', 'to']);
  });

  it('refuses the same spellings on a streamed upload, and writes nothing', async () => {
    for (const [, path] of spellings) {
      const response = await http(server.url, `/api/v3/command/drive.save?path=${encodeURIComponent(path)}`, {
        auth: ann,
        type: 'application/octet-stream',
        body: 'x',
      });
      expect(codeOf(response)).toBe('PARAM_INVALID');
    }
    // raw query text decoded once by the server: ..%2f..%2f is ../../
    const raw = await http(server.url, '/api/v3/command/drive.save?path=..%2f..%2fescaped.txt', {
      auth: ann,
      type: 'text/plain',
      body: 'x',
    });
    expect(codeOf(raw)).toBe('PARAM_INVALID');
    expect(readdirSync(join(server.config.dataDir, 'drive'))).not.toContain('escaped.txt');
    expect(readdirSync(server.config.dataDir)).not.toContain('escaped.txt');
  });

  it.each<[string, string, Record<string, string>]>([
    ['read through a linked folder', 'drive.read', { path: 'escape/secret.txt' }],
    ['read a linked file', 'drive.read', { path: 'secret-link.txt' }],
    ['list a linked folder', 'drive.list', { path: 'escape' }],
    ["read another user's file through a link", 'drive.read', { path: 'ben/ben.txt' }],
    ['delete through a link', 'drive.delete', { path: 'escape/secret.txt' }],
    ['copy out through a link', 'drive.copy', { path: 'escape/secret.txt', to: 'inner' }],
    ['copy in through a link', 'drive.copy', { path: 'inner/ok.txt', to: 'escape' }],
    ['make a folder through a link', 'drive.mkdir', { path: 'escape/new' }],
    ['a dangling link', 'drive.exists', { path: 'dangling.txt' }],
  ])('refuses a symbolic link escape: %s', async (_what, command, params) => {
    const response = await call('GET', command, params);
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside the drive');
  });

  it('refuses uploads through a link (also a dangling one) and leaves its target alone', async () => {
    for (const path of ['escape/planted.txt', 'dangling.txt', 'ben/ben.txt']) {
      const response = await http(server.url, `/api/v3/command/drive.save?path=${path}`, {
        auth: ann,
        type: 'text/plain',
        body: 'planted',
      });
      expect(codeOf(response)).toBe('FORBIDDEN');
    }
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(benRoot, 'ben.txt'), 'utf8')).toBe('ben only');
  });

  it('follows links that stay inside the root, and leaves escaping ones out of listings', async () => {
    expect((await call('GET', 'drive.read', { path: 'inner-link/ok.txt' })).text).toBe('fine');
    const names = (await call('GET', 'drive.list', { path: '' })).json.map((e: { name: string }) => e.name);
    expect(names).toEqual(['inner', 'inner-link']);
  });
});

describe('atomic writes', () => {
  it('keeps the old file and leaves no temporary file when an upload is refused for its size', async () => {
    const first = await http(server.url, '/api/v3/command/drive.save?path=kept.txt', {
      auth: ann,
      type: 'text/plain',
      body: 'the old content',
    });
    expect(first.status).toBe(200);
    const tooLarge = await http(server.url, '/api/v3/command/drive.save?path=kept.txt', {
      auth: ann,
      type: 'application/octet-stream',
      body: new Uint8Array(5000),
    });
    expect([tooLarge.status, codeOf(tooLarge)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(readFileSync(join(annRoot, 'kept.txt'), 'utf8')).toBe('the old content');
    expect(readdirSync(join(server.config.dataDir, 'drive', '.tmp'))).toEqual([]);
  });

  it('answers 413 to a streamed upload that passes the limit, and to one that declares too much', async () => {
    const { request } = await import('node:http');
    const send = (headers: Record<string, string>, chunks: number) =>
      new Promise<{ status: number; code?: string }>((resolve, reject) => {
        const req = request(`${server.url}/api/v3/command/drive.save?path=kept.txt`, {
          method: 'POST',
          headers: { authorization: ann, 'content-type': 'application/octet-stream', ...headers },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, code: JSON.parse(text).value?.code }));
        });
        req.on('error', reject);
        let sent = 0;
        const more = () => {
          while (sent < chunks) {
            sent++;
            if (!req.write(new Uint8Array(64 * 1024))) return void req.once('drain', more);
          }
          req.end();
        };
        more();
      });
    expect(await send({}, 80)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' }); // 5 MiB, chunked
    expect(await send({ 'content-length': String(10 ** 12) }, 0)).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(readFileSync(join(annRoot, 'kept.txt'), 'utf8')).toBe('the old content');
  });

  it('keeps the old file when the client goes away mid-upload', async () => {
    const { request } = await import('node:http');
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/api/v3/command/drive.save?path=kept.txt`, {
        method: 'POST',
        headers: { authorization: ann, 'content-type': 'application/octet-stream', 'content-length': '900' },
      });
      req.on('error', () => resolve());
      req.write(new Uint8Array(300), () => setTimeout(() => req.destroy(), 100));
      req.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(join(annRoot, 'kept.txt'), 'utf8')).toBe('the old content');
    expect(readdirSync(join(server.config.dataDir, 'drive', '.tmp'))).toEqual([]);
  });
});
