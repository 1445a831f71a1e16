/** Concurrency: 50 clients increment one property by compare-and-swap at once; it ends at exactly 50, no 500s. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { command } from './support/requests';
import { killHard, startServerProcess, type ServerProcess } from './support/server-process';

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-cas-'));
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(dataDir);
});
afterAll(async () => {
  await killHard(server);
  rmSync(dataDir, { recursive: true, force: true });
});

it('50 parallel compare-and-swap increments of one property end at exactly 50', async () => {
  const key = 'global/app/cas/counter';
  expect((await command(server.url, 'property.schema.put', { key, value: '0' })).status).toBe(200);
  const statuses: number[] = [];
  const increment = async () => {
    for (;;) {
      const current = await command(server.url, 'property.get', { key });
      statuses.push(current.status);
      const { value, version } = current.json as { value: string | number; version: number };
      const put = await command(server.url, 'property.put', {
        key,
        value: String(Number(value) + 1),
        version,
      });
      statuses.push(put.status);
      if (put.status === 200) return;
      expect(put.json.value.code).toBe('CONFLICT');
    }
  };
  await Promise.all(Array.from({ length: 50 }, increment));
  const final = await command(server.url, 'property.value.get', { key });
  expect(Number(final.bytes.toString())).toBe(50);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
});
