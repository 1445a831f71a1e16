/**
 * Client aborts: when the client of a long pipeline or script disconnects, the server stops the work (the
 * pipeline's writes stop, the script's worker is freed) and goes on serving others.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { command } from './support/requests';
import { ADMIN_AUTH, killHard, startServerProcess, type ServerProcess } from './support/server-process';

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-abort-'));
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(dataDir, {
    PIPEWORK_SCRIPT_WORKERS: '1',
    PIPEWORK_SCRIPT_MILLIS: '30000',
  });
});
afterAll(async () => {
  await killHard(server);
  rmSync(dataDir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startPipeline(script: object, body: unknown): AbortController {
  const abort = new AbortController();
  void fetch(`${server.url}/api/v3/pipeline`, {
    method: 'POST',
    headers: { authorization: ADMIN_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ ...script, body }),
    signal: abort.signal,
  }).catch(() => undefined);
  return abort;
}

it('a pipeline serves others while it runs, and stops writing when its client disconnects', async () => {
  const key = 'global/app/abort/progress';
  expect((await command(server.url, 'property.schema.put', { key, value: '0' })).status).toBe(200);
  const pipeline = {
    pipeline: [{ foreach: '#{body}' }, { 'property.put': { key, value: '#{vars.item}' } }, 'foreach.end'],
  };
  const abort = startPipeline(
    pipeline,
    Array.from({ length: 90_000 }, (_, i) => i + 1),
  );
  await pause(1000);
  // Served while the pipeline runs: a long run of synchronous steps does not hold the event loop.
  const during = Number((await command(server.url, 'property.value.get', { key })).bytes.toString());
  expect(during).toBeGreaterThan(0);
  await pause(500);
  abort.abort();
  await pause(300);
  const atAbort = Number((await command(server.url, 'property.value.get', { key })).bytes.toString());
  await pause(1000);
  const later = Number((await command(server.url, 'property.value.get', { key })).bytes.toString());
  expect(atAbort).toBeGreaterThan(0);
  expect(atAbort).toBeLessThan(90_000);
  expect(later).toBe(atAbort);
});

it('a script whose client disconnects is stopped and its worker serves the next script', async () => {
  const abort = new AbortController();
  const looping = fetch(`${server.url}/api/v3/command/script.run`, {
    method: 'POST',
    headers: { authorization: ADMIN_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ script: 'function command() { for (;;) {} }' }),
    signal: abort.signal,
  }).catch(() => 'aborted');
  await pause(500);
  abort.abort();
  expect(await looping).toBe('aborted');
  // One worker only: the next script runs at once only if the looping one was stopped, not after its 30 s limit.
  const started = Date.now();
  const next = await command(server.url, 'script.run', { script: 'function command() { return 6 * 7; }' });
  expect(next.status).toBe(200);
  expect(next.json).toBe(42);
  expect(Date.now() - started).toBeLessThan(15_000);
});
