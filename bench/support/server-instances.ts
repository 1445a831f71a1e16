/**
 * Pipework instances for the scale-out benchmark: the production server bundle (`server/main.ts`, as `npm start`
 * runs it) started as child processes on port 0, each with its own data folder, all on one database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN_PASSWORD } from './bench-constants';
import { PROJECT_ROOT } from './project-root';
// @ts-expect-error -- a plain JavaScript build script without type declarations
import { buildServer } from '../../scripts/build-server.mjs';

export interface ServerInstance {
  url: string;
  /** The server process, e.g. for its memory in /proc/<pid>/status. */
  pid: number;
  stop(): Promise<void>;
}

const BUNDLE = 'dist/bench/instance-main.mjs';

/** Bundles the server once for the instances of this run. */
export async function buildInstanceBundle(): Promise<void> {
  await buildServer('server/main.ts', join(PROJECT_ROOT, BUNDLE));
}

/** Starts one instance with `env` on top of the benchmark's settings; resolves once it listens. */
export async function startInstance(env: Record<string, string>): Promise<ServerInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipework-bench-instance-'));
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', BUNDLE], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PIPEWORK_DATA: dataDir,
      PIPEWORK_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-100_000); // the start-up lines; later output is read and dropped
      const match = /"msg":"Pipework is listening"/.test(output) && /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(([code]) =>
      reject(new Error(`a Pipework instance exited (${code}) before listening:\n${output}`)),
    );
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
