import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { basicAuth, startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  // a real socket: uploads are streamed through node:http
  server = await startTestServer({ socket: true });
});
afterAll(() => server.close());

const MiB = 1024 * 1024;
const TOTAL = 500 * MiB;

/** The body, made piece by piece as the upload asks for it: never allocated whole. */
function* generatedBody(hash: ReturnType<typeof createHash>): Generator<Uint8Array> {
  const piece = new Uint8Array(256 * 1024).map((_, i) => (i * 31) & 255);
  for (let produced = 0; produced < TOTAL; produced += piece.length) {
    const chunk = piece.slice();
    chunk[0] = (produced / piece.length) & 255;
    hash.update(chunk);
    yield chunk;
  }
}

function upload(
  path: string,
  body: Iterable<Uint8Array>,
  to = { url: server.url, auth: server.adminAuth },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${to.url}/api/v3/command/drive.save?path=${path}`, {
      method: 'POST',
      headers: { authorization: to.auth, 'content-type': 'application/octet-stream' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    pipeline(Readable.from(body), req).catch(reject);
  });
}

it('streams a 500 MB upload to disk with the memory staying flat', async () => {
  // Live memory: collect garbage before each sample, so what is counted is what something still holds.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const baseline = process.memoryUsage();
  let livePeak = 0;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    gc();
    const m = process.memoryUsage();
    livePeak = Math.max(livePeak, m.heapUsed + m.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers);
    rssPeak = Math.max(rssPeak, m.rss - baseline.rss);
  }, 200);
  const sent = createHash('sha256');
  let result: { status: number; text: string };
  try {
    result = await upload('big/upload.bin', generatedBody(sent));
  } finally {
    clearInterval(sampler);
  }
  expect(result.status).toBe(200);
  expect(JSON.parse(result.text)).toMatchObject({ path: 'big/upload.bin', size: TOTAL });
  console.info(
    `500 MB drive upload: live heap+buffers peak +${(livePeak / MiB).toFixed(1)} MiB, ` +
      `RSS peak +${(rssPeak / MiB).toFixed(1)} MiB (baseline RSS ${(baseline.rss / MiB).toFixed(0)} MiB)`,
  );
  // The file (client and server in this process together) never came near being held whole.
  expect(livePeak).toBeLessThan(64 * MiB);
  expect(rssPeak).toBeLessThan(160 * MiB);

  const admin = await server.services.iam.principalByUsername('admin');
  const file = join(server.config.dataDir, 'drive', 'users', admin!.uuid, 'big', 'upload.bin');
  expect(statSync(file).size).toBe(TOTAL);
  const stored = createHash('sha256');
  for await (const chunk of createReadStream(file)) stored.update(chunk as Buffer);
  expect(stored.digest('hex')).toBe(sent.digest('hex'));
}, 180_000);

/** Resident memory of a process, from /proc (Linux). */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) * 1024;
}

it('keeps the resident memory of a server in its own process flat during a 500 MB upload', async () => {
  const child = fork(new URL('./upload-test-server.ts', import.meta.url).pathname, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { url } = await new Promise<{ url: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { url: string }));
      child.once('exit', (code) => reject(new Error(`upload test server exited with ${code}`)));
    });
    const to = { url, auth: basicAuth('admin', 'upload-test-password') };
    await upload('warm-up.bin', [new Uint8Array(1024 * 1024)], to); // first request: code paths loaded
    const baseline = rssOf(child.pid!);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 100);
    let result: { status: number; text: string };
    try {
      result = await upload('big/child.bin', generatedBody(createHash('sha256')), to);
    } finally {
      clearInterval(sampler);
    }
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text)).toMatchObject({ size: TOTAL });
    console.info(
      `500 MB drive upload, server in a child process: RSS ${(baseline / MiB).toFixed(0)} MiB before, ` +
        `peak ${(peak / MiB).toFixed(0)} MiB (+${((peak - baseline) / MiB).toFixed(1)} MiB)`,
    );
    expect(peak - baseline).toBeLessThan(64 * MiB);
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}, 180_000);
