// The resident memory of a server (in its own process) while 150 MB arrive as a multipart upload to drive.save
// and as a pipeline's multipart body to property.attachment.put: both are spooled and streamed, so the peak
// stays far below the size. (The 500 MB raw drive upload is measured in drive-upload-memory.test.ts.)
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { basicAuth } from '../testing/test-server';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.UPLOAD_TEST_MIB ?? 150) * MiB;
const BOUNDARY = 'MemoryBoundary81c2';

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** Sends a multipart body whose file part is generated piece by piece, with its Content-Length. */
function postMultipart(
  url: string,
  auth: string,
  fields: Record<string, string>,
  fileName: string,
  size = SIZE,
) {
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    const piece = new Uint8Array(256 * 1024).map((_, i) => (i * 13) & 255);
    let sent = 0;
    req.write(head);
    const more = () => {
      while (sent < size) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', more);
      }
      req.end(tail);
    };
    more();
  });
}

it('keeps the server flat while 150 MB multipart uploads are spooled and streamed into the drive and attachments', async () => {
  const child = fork(new URL('../commands/drive/upload-test-server.ts', import.meta.url).pathname, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { url, dataDir } = await new Promise<{ url: string; dataDir: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { url: string; dataDir: string }));
      child.once('exit', (code) => reject(new Error(`upload test server exited with ${code}`)));
    });
    const auth = basicAuth('admin', 'upload-test-password');
    const made = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}/api/v3/command/property.schema.put?key=global/mem/doc&value=doc`, {
        method: 'POST',
        headers: { authorization: auth, 'content-length': '0' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(made).toBe(200);
    // First uploads load the code paths (a fixed cost, not the upload's): measured after them.
    await postMultipart(`${url}/api/v3/command/drive.save?path=warm/`, auth, {}, 'warm.bin', MiB);
    const baseline = rssOf(child.pid!);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 50);
    let drivePeak = 0;
    let drive: { status: number; text: string };
    let attach: { status: number; text: string };
    try {
      drive = await postMultipart(`${url}/api/v3/command/drive.save?path=mem/`, auth, {}, 'big.bin');
      drivePeak = peak;
      attach = await postMultipart(
        `${url}/api/v3/pipeline`,
        auth,
        { pipeline: 'pipeline:\n  - property.attachment.put:\n      key: global/mem/doc\n' },
        'big.bin',
      );
    } finally {
      clearInterval(sampler);
    }
    expect(drive.status, drive.text).toBe(200);
    expect(JSON.parse(drive.text)).toMatchObject({ path: 'mem/big.bin', size: SIZE });
    expect(attach.status, attach.text).toBe(200);
    expect(JSON.parse(attach.text)).toMatchObject([{ name: 'big.bin', length: SIZE }]);
    console.info(
      `2 x ${SIZE / MiB} MiB multipart uploads: server RSS ${(baseline / MiB).toFixed(0)} MiB before, ` +
        `peak +${((drivePeak - baseline) / MiB).toFixed(1)} MiB (drive), +${((peak - baseline) / MiB).toFixed(1)} MiB (both)`,
    );
    expect(peak - baseline).toBeLessThan(SIZE / 2);
    // A request's spool files go when its response closes, just after the client has the answer.
    await vi.waitFor(() => expect(readdirSync(join(dataDir, 'tmp', 'uploads'))).toEqual([]), {
      timeout: 5_000,
    });
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}, 180_000);
