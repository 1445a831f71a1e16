/** Starts the benchmark servers in a child process and measures requests/s against them with autocannon. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PROJECT_ROOT } from './project-root';
import { SERVER_NODE_OPTIONS } from '../../scripts/server-node-options.mjs';
// @ts-expect-error -- a plain JavaScript build script without type declarations
import { buildServer } from '../../scripts/build-server.mjs';

export interface BenchServers {
  pipework: string;
  bare: string;
  stop(): void;
}

/**
 * The servers run from a production bundle with the server's Node.js options (as `npm start` runs them),
 * not through the TypeScript loader.
 */
/** `env`: more environment for the server process (e.g. `PIPEWORK_RUNS_HISTORY=off`). */
export async function startBenchServers(env: Record<string, string> = {}): Promise<BenchServers> {
  const bundle = join(PROJECT_ROOT, 'dist/bench/http-servers.mjs');
  await buildServer('bench/support/http-servers.ts', bundle);
  const child: ChildProcess = fork(bundle, [], {
    execArgv: [...SERVER_NODE_OPTIONS],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const urls = await new Promise<{ pipework: string; bare: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { pipework: string; bare: string }));
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
  });
  return { ...urls, stop: () => child.kill('SIGTERM') };
}

/** Requests per second of GETs to one URL (loopback only, bounded duration). */
export async function requestsPerSecond(
  url: string,
  headers: Record<string, string> = {},
  seconds = 3,
): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return result.requests.average;
}
