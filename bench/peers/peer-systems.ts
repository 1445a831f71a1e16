/**
 * The peers of `npm run bench:peers`: Node-RED and n8n, installed on first use into ignored folders below
 * `install/` (pinned versions in each folder's package.json), each started on loopback with the flow beside
 * this file. n8n is optional: where it does not install or start, its rows are left out and the reason printed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root';

export interface PeerSystem {
  name: string;
  /** The URL that takes the order payload as JSON and answers the result. */
  url: string;
  /** Milliseconds from spawning the process to its first correct answer. */
  startMillis: number;
  process: ChildProcess;
  /** Ends the process and, once it has exited, removes its folder. */
  stop(): Promise<void>;
}

const PEERS_DIR = join(PROJECT_ROOT, 'bench', 'peers');

/**
 * How each peer installs. n8n's install scripts are skipped: one of them builds a sandbox module that needs a
 * newer Node.js than ours, and n8n then runs its expressions with its `legacy` engine (see startN8n); only its
 * SQLite driver is built. Its `xlsx` dependency points outside the package registry, so package.json overrides
 * it with the registry's release.
 */
const INSTALL_STEPS: Record<'node-red' | 'n8n', string[][]> = {
  'node-red': [['install', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error']],
  n8n: [
    ['install', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', '--loglevel=error'],
    ['rebuild', 'sqlite3', '--loglevel=error'],
  ],
};

/** Installs one peer's pinned package into `install/<name>/node_modules` unless it is there. */
export function ensureInstalled(name: 'node-red' | 'n8n'): string | null {
  const dir = join(PEERS_DIR, 'install', name);
  const marker = join(dir, 'node_modules', name, 'package.json');
  if (existsSync(marker)) return dir;
  console.log(`  installing ${name} into bench/peers/install/${name} (first use, a few minutes)...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let status: number | null = 0;
  for (const args of INSTALL_STEPS[name]) {
    if (status === 0) status = spawnSync(npm, args, { cwd: dir, stdio: 'inherit' }).status;
  }
  if (status !== 0 || !existsSync(marker)) {
    console.log(`  ${name} did not install (exit ${status}); its rows are left out`);
    return null;
  }
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it answers true or the deadline passes; the child's early exit fails it at once. */
export async function waitUntil(
  probe: () => Promise<boolean>,
  child: ChildProcess,
  what: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it answered`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not answer within ${timeoutMs} ms`);
}

function stopper(child: ChildProcess, folder: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
}

export async function startNodeRed(answers: (url: string) => Promise<boolean>): Promise<PeerSystem | null> {
  const dir = ensureInstalled('node-red');
  if (dir === null) return null;
  const userDir = mkdtempSync(join(tmpdir(), 'pipework-peer-node-red-'));
  copyFileSync(join(PEERS_DIR, 'node-red', 'flow.json'), join(userDir, 'flow.json'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(dir, 'node_modules', 'node-red', 'red.js'),
      '--port',
      String(port),
      '--userDir',
      userDir,
      '--settings',
      join(PEERS_DIR, 'node-red', 'settings.cjs'),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_RED_HOST: '127.0.0.1' } },
  );
  const url = `http://127.0.0.1:${port}/orders`;
  await waitUntil(() => answers(url), child, 'Node-RED', 60_000);
  const startMillis = performance.now() - started;
  return { name: 'Node-RED 4.1', url, startMillis, process: child, stop: stopper(child, userDir) };
}

/** n8n with its own user folder: the workflow imported and activated through its CLI, then started. */
export async function startN8n(answers: (url: string) => Promise<boolean>): Promise<PeerSystem | null> {
  const dir = ensureInstalled('n8n');
  if (dir === null) return null;
  const userFolder = mkdtempSync(join(tmpdir(), 'pipework-peer-n8n-'));
  const port = await freePort();
  const env = {
    ...process.env,
    N8N_USER_FOLDER: userFolder,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_LOG_LEVEL: 'error',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    // The default `vm` engine needs the sandbox module that does not build here (see INSTALL_STEPS).
    N8N_EXPRESSION_ENGINE: 'legacy',
    EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
    EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'false',
  };
  const cli = join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
  const workflow = join(PEERS_DIR, 'n8n', 'workflow.json');
  for (const args of [
    ['import:workflow', `--input=${workflow}`],
    ['update:workflow', '--id=PwBenchOrders001', '--active=true'],
  ]) {
    const step = spawnSync(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (step.status !== 0) {
      console.log(`  n8n ${args[0]} failed (${step.stderr.toString().trim().slice(0, 300)}); rows left out`);
      rmSync(userFolder, { recursive: true, force: true });
      return null;
    }
  }
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/webhook/orders`;
  try {
    await waitUntil(() => answers(url), child, 'n8n', 180_000);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(userFolder, { recursive: true, force: true });
    console.log(`  ${(error as Error).message}; n8n rows left out`);
    return null;
  }
  const startMillis = performance.now() - started;
  return { name: 'n8n 1.123', url, startMillis, process: child, stop: stopper(child, userFolder) };
}
