import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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

function upload(path: string, body: Iterable<Uint8Array>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/v3/command/drive.save?path=${path}`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/octet-stream' },
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

  const admin = server.services.iam.principalByUsername('admin');
  const file = join(server.config.dataDir, 'drive', 'users', admin!.uuid, 'big', 'upload.bin');
  expect(statSync(file).size).toBe(TOTAL);
  const stored = createHash('sha256');
  for await (const chunk of createReadStream(file)) stored.update(chunk as Buffer);
  expect(stored.digest('hex')).toBe(sent.digest('hex'));
}, 180_000);
