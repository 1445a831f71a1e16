// Bundles the server into dist/server/main.mjs (dependencies stay in node_modules), as `npm start` runs it.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles one entry point (by default the server) the way production runs it. */
export async function buildServer(entry = 'server/main.ts', outfile = 'dist/server/main.mjs') {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
