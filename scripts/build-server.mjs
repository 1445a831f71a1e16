// Bundles the server into dist/server/main.mjs (dependencies stay in node_modules), as `npm start` runs it.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder with package.json above this file (also when this file is bundled into dist/). */
function projectRoot() {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const root = projectRoot();

/** The worker thread of the PostgreSQL sync bridge, bundled beside each bundle (it looks for it there). */
const SYNC_BRIDGE_WORKER = 'server/store/postgres/sync-bridge/sync-bridge-worker.ts';

/** Bundles one entry point (by default the server) the way production runs it. */
export async function buildServer(entry = 'server/main.ts', outfile = 'dist/server/main.mjs') {
  const bundle = (entryPoint, out) =>
    build({
      absWorkingDir: root,
      entryPoints: [entryPoint],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: true,
      logLevel: 'warning',
    });
  await bundle(entry, outfile);
  await bundle(SYNC_BRIDGE_WORKER, join(dirname(outfile), 'postgres-sync-worker.mjs'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
