/**
 * The server as `npm start` runs it: bundled by scripts/build-server.mjs with its dependencies left in
 * node_modules, then started by plain Node.js. The other suites run the sources through tsx, which resolves
 * imports more leniently than Node's ESM loader does (a deep import without its `.js` once passed every test
 * and crashed `npm start`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { buildServer } from '../scripts/build-server.mjs';
import { ADMIN_AUTH, killHard, startServerProcess } from './support/server-process';

const ROOT = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'pipework-bundle-'));
// Inside the project, so that the bundle finds node_modules as dist/server/main.mjs does.
const outDir = join(ROOT, 'dist', 'reliability-bundle');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

it('starts from the bundle and runs a pipeline that reaches the lazily used libraries', async () => {
  await (buildServer as (entry: string, outfile: string) => Promise<void>)(
    'server/main.ts',
    join(outDir, 'main.mjs'),
  );
  const server = await startServerProcess(dataDir, {}, join(outDir, 'main.mjs'));
  try {
    const pipeline = [
      'pipeline:',
      '  - json.validate:',
      '      schema: {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["a"]}',
      '      input: {"a": 1}',
    ].join('\n');
    const response = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: ADMIN_AUTH, 'content-type': 'application/yaml' },
      body: pipeline,
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ status: 'ok' });
  } finally {
    await killHard(server);
  }
});
