// `npm start`: builds the workbench and bundles the server only when their sources changed since the last
// build, then runs the bundle. Once built, it needs neither the bundler nor Vite (no dev dependency).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isUpToDate, sourceDigest, writeStamp } from './build-stamp.mjs';
import { SERVER_NODE_OPTIONS } from './server-node-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const inDist = (path) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));

/** What each build is made from; package-lock.json too, since a changed dependency changes the output. */
const WEB_INPUTS = ['web', 'shared', 'vite.config.ts', 'package-lock.json'];
const SERVER_INPUTS = ['server', 'shared', 'scripts/build-server.mjs', 'package-lock.json'];

const webDigest = sourceDigest(root, WEB_INPUTS);
if (!isUpToDate(inDist('web.stamp'), inDist('web/index.html'), webDigest)) {
  console.log('Building the workbench (its sources changed since the last build)...');
  const build = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeStamp(inDist('web.stamp'), webDigest);
}

const serverDigest = sourceDigest(root, SERVER_INPUTS);
if (!isUpToDate(inDist('server.stamp'), inDist('server/main.mjs'), serverDigest)) {
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
  writeStamp(inDist('server.stamp'), serverDigest);
}

const server = spawn(process.execPath, [...SERVER_NODE_OPTIONS, 'dist/server/main.mjs'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
