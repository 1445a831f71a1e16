/**
 * The server as `npm start` runs it: bundled by scripts/build-server.mjs with its dependencies (but the few it
 * leaves in node_modules), then started by plain Node.js. The other suites run the sources through tsx, which resolves
 * imports more leniently than Node's ESM loader does (a deep import without its `.js` once passed every test
 * and crashed `npm start`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the build scripts, without types
import { buildServer } from '../scripts/build-server.mjs';
import { ADMIN_AUTH, ADMIN_PASSWORD, killHard, startServerProcess } from './support/server-process';

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
  const run = async (...steps: string[]) => {
    const response = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: ADMIN_AUTH, 'content-type': 'application/yaml', accept: 'application/json' },
      body: ['pipeline:', ...steps].join('\n'),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return text;
  };
  try {
    const validated = await run(
      '  - json.validate:',
      '      schema: {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["a"]}',
      '      input: {"a": 1}',
    );
    expect(JSON.parse(validated)).toMatchObject({ status: 'ok' });
    // Loaded at their first use (see docs/operations.md): pdf-lib, the SQL parser; and the signing key,
    // made in the background at the first start.
    const zoned = await run(
      `  - set.body: "#{@date.parse('1970-01-01 01:00', 'yyyy-MM-dd HH:mm', 'Europe/Berlin')}"`,
    );
    expect(JSON.parse(zoned)).toBe(0);
    const pdf = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: ADMIN_AUTH, 'content-type': 'application/yaml' },
      body: 'pipeline:\n  - pdf.create: {pages: 1, format: A4}\n',
    });
    expect((await pdf.text()).startsWith('%PDF-')).toBe(true);
    const rows = await run(
      '  - property.query: {select: key, from: "global/app/none/*", where: "key LIKE \'%x%\' LIMIT 1"}',
    );
    expect(JSON.parse(rows)).toEqual([]);
    const token = await fetch(`${server.url}/auth/realms/pipework/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'cli',
        username: 'admin',
        password: ADMIN_PASSWORD,
      }).toString(),
    });
    expect(token.status, await token.clone().text()).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const asBearer = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/yaml' },
      body: 'pipeline:\n  - set.body: ok\n',
    });
    expect(asBearer.status).toBe(200);
  } finally {
    await killHard(server);
  }
});
