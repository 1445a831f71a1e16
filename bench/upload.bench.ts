/**
 * Uploads and persisted pipelines against the production server bundle in a child process: a 50 MB multipart
 * upload and a raw upload of the same bytes (time and the server's peak RSS), and runs per second of a stored
 * pipeline (`POST /api/v3/pipeline:<key>`) against the same pipeline posted inline.
 */
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import autocannon from 'autocannon';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { buildInstanceBundle, startInstance, type ServerInstance } from './support/server-instances';

const MiB = 1024 * 1024;
const UPLOAD_BYTES = 50 * MiB;
const AUTH = `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`;
const BOUNDARY = '----PipeworkBenchBoundary';

/** The upload's bytes, made piece by piece (the client never holds them whole). */
function* uploadPieces(): Generator<Uint8Array> {
  const piece = new Uint8Array(256 * 1024).map((_, i) => (i * 31) & 255);
  for (let sent = 0; sent < UPLOAD_BYTES; sent += piece.length) yield piece;
}

function* multipartPieces(): Generator<Uint8Array> {
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  yield* uploadPieces();
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

/** Resets the peak RSS of a process we started (Linux: clear_refs 5), then reads it back after the work. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
function peakRssMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function post(
  url: string,
  type: string,
  body: Iterable<Uint8Array>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: AUTH, 'content-type': type } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    (async () => {
      for (const piece of body) if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      req.end();
    })().catch(reject);
  });
}

interface Upload {
  ms: number;
  peakMiB: number;
}

async function measureUpload(
  server: ServerInstance,
  url: string,
  type: string,
  body: () => Iterable<Uint8Array>,
) {
  resetPeak(server.pid);
  const start = performance.now();
  const answer = await post(server.url + url, type, body());
  const ms = performance.now() - start;
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return { ms, peakMiB: peakRssMiB(server.pid) };
}

async function uploadRows(report: BenchReport, server: ServerInstance): Promise<void> {
  await post(
    `${server.url}/api/v3/command/property.schema.put?path=global/bench/upload&value=x`,
    'text/plain',
    [],
  );
  const multipart: Upload[] = [];
  const raw: Upload[] = [];
  for (let round = 0; round < 3; round++) {
    raw.push(
      await measureUpload(
        server,
        '/api/v3/command/drive.save?path=bench/big.bin',
        'application/octet-stream',
        uploadPieces,
      ),
    );
    multipart.push(
      await measureUpload(
        server,
        '/api/v3/command/property.attachment.put?path=global/bench/upload',
        `multipart/form-data; boundary=${BOUNDARY}`,
        multipartPieces,
      ),
    );
  }
  const of = (list: Upload[], field: keyof Upload) => median(list.map((u) => u[field]));
  report.add({
    name: 'upload 50 MB multipart (property.attachment.put)',
    value: of(multipart, 'ms'),
    unit: 'ms',
    baseline: 'raw body to drive.save',
    baselineValue: of(raw, 'ms'),
  });
  report.add({
    name: 'upload 50 MB multipart: server peak RSS',
    value: of(multipart, 'peakMiB'),
    unit: 'MiB',
    baseline: 'raw body to drive.save',
    baselineValue: of(raw, 'peakMiB'),
  });
}

async function postsPerSecond(url: string, type: string, body: string | undefined): Promise<number> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': type }) },
    body,
    connections: 10,
    duration: 3,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return result.requests.average;
}

async function persistedPipelineRows(report: BenchReport, server: ServerInstance): Promise<void> {
  const yaml =
    'pipeline:\n  - log:\n      message: "run #{1 + 1}"\n      level: DEBUG\n  - set.body:\n      value: done\n';
  const key = 'global/app/bench/pipeline/hello';
  const stored = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}/api/v3/pipeline:${key}`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/yaml' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(yaml);
  });
  if (stored !== 200) throw new Error(`storing the bench pipeline answered ${stored}`);
  const persisted = `${server.url}/api/v3/pipeline:${key}`;
  const inline = `${server.url}/api/v3/pipeline`;
  await postsPerSecond(persisted, '', undefined); // warm-up (and the one slow password hash)
  const ours: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < 3; round++) {
    base.push(await postsPerSecond(inline, 'application/yaml', yaml));
    ours.push(await postsPerSecond(persisted, '', undefined));
  }
  report.add({
    name: 'POST /api/v3/pipeline:<key> (stored pipeline)',
    value: median(ours),
    unit: 'runs/s',
    baseline: 'same pipeline posted inline',
    baselineValue: median(base),
  });
}

export default async function uploadBench(report: BenchReport): Promise<void> {
  await buildInstanceBundle();
  const server = await startInstance({});
  try {
    await uploadRows(report, server);
    await persistedPipelineRows(report, server);
  } finally {
    await server.stop();
  }
}
