/**
 * The real server as a child process (`node --import tsx server/main.ts`, or a built bundle), so that tests can kill it with
 * SIGKILL or stop it with SIGTERM and start it again on the same data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export const ADMIN_PASSWORD = 'reliability-admin-password';
export const ADMIN_AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const ROOT = join(import.meta.dirname, '..', '..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr (its JSON log lines). */
  output(): string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  /** A bundle built by scripts/build-server.mjs to run instead of the sources (as `npm start` does). */
  bundle?: string,
): Promise<ServerProcess> {
  const args = bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PIPEWORK_DATA: dataDir,
      PIPEWORK_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      // The last megabyte is kept: enough for the log lines a test looks at, bounded under load. Trimmed only
      // when twice that, and searched only until the server listens, so a busy server's log costs little here
      // (a slow reader would block the server's writes to the pipe and distort what a load test measures).
      output += chunk.toString();
      if (output.length > 2_000_000) output = output.slice(-1_000_000);
      if (listening) return;
      const match = /"msg":"Pipework is listening"/.test(output) && /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        listening = true;
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code }) =>
      reject(new Error(`the server exited (${code}) before listening:\n${output}`)),
    );
  });
  return { url, child, output: () => output.slice(-1_000_000), exited };
}

/** Sends SIGKILL and waits until the process is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}
