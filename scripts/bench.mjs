// `npm run bench`: bundles the benchmarks the way production code is built (no development loader), then runs them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The runner starts the measured servers from bundles of their own (bundled as `npm start` bundles).
await buildServer('bench/run-all.ts', 'dist/bench/run-all.mjs', { dependencies: 'external' });
const run = spawnSync(
  process.execPath,
  ['--enable-source-maps', 'dist/bench/run-all.mjs', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
