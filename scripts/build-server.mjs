// Bundles the server into dist/server/main.mjs, as `npm start` runs it. The dependencies are bundled too, so
// that a start loads one file rather than hundreds of modules from node_modules (resolving, reading and
// compiling each, and scanning every CommonJS one for its exports, was most of the cold start). The packages of
// SERVER_EXTERNALS stay in node_modules (see there why).
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

/**
 * The packages left in node_modules, loaded from there at run time:
 * - better-sqlite3 and @node-rs/argon2 load native add-ons found beside their own files;
 * - pino starts its transports as workers from files beside its own (thread-stream's worker.js);
 * - the sandbox's QuickJS runs in a worker started from server/script/sandbox-worker.mjs, which imports it.
 */
export const SERVER_EXTERNALS = [
  'better-sqlite3',
  '@node-rs/argon2',
  'pino',
  '@jitl/quickjs-wasmfile-release-sync',
  'quickjs-emscripten-core',
];

/**
 * CommonJS modules in an ES module bundle call `require` for Node's built-ins (and for the externals);
 * an ES module has none, so the bundle makes one at its top.
 */
const REQUIRE_BANNER =
  "import { createRequire as __bundleCreateRequire } from 'node:module'; " +
  'const require = __bundleCreateRequire(import.meta.url);';

/** The worker thread of the PostgreSQL sync bridge, bundled beside each bundle (it looks for it there). */
const SYNC_BRIDGE_WORKER = 'server/store/postgres/sync-bridge/sync-bridge-worker.ts';

/**
 * Bundles one entry point (by default the server) the way production runs it. `dependencies: 'external'`
 * leaves every package in node_modules: for tools that only start servers (the benchmarks' runner, which
 * itself calls the bundler), not for anything that is measured or served.
 */
export async function buildServer(
  entry = 'server/main.ts',
  outfile = 'dist/server/main.mjs',
  { dependencies = 'bundled' } = {},
) {
  const packages = dependencies === 'external' ? { packages: 'external' } : { external: SERVER_EXTERNALS };
  const bundle = (entryPoint, out) =>
    build({
      absWorkingDir: root,
      entryPoints: [entryPoint],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      ...packages,
      banner: { js: REQUIRE_BANNER },
      sourcemap: true,
      // `npm start` runs with --enable-source-maps, which reads the whole map at start. Without the sources'
      // text (the files are in the checkout the bundle runs from) it is a third of the size, 0.1 s sooner.
      sourcesContent: false,
      logLevel: 'warning',
    });
  await bundle(entry, outfile);
  await bundle(SYNC_BRIDGE_WORKER, join(dirname(outfile), 'postgres-sync-worker.mjs'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
