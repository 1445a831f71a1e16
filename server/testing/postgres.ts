/**
 * A real PostgreSQL on loopback for tests: `initdb` into a temporary folder, trust authentication on
 * 127.0.0.1 only, a free port, started once per test file and stopped (and removed) after. As root (CI
 * containers), the cluster belongs to the `postgres` account, because initdb refuses to run as root.
 * Tests keep apart on one cluster with `freshTestSchema`: an empty schema each, dropped after.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): void;
}

/** The folder of Debian's PostgreSQL binaries (the newest installed), or undefined when there is none. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissingReason(): string | undefined {
  return postgresBinDir()
    ? undefined
    : 'PostgreSQL binaries (/usr/lib/postgresql/*/bin/initdb) are not installed; .ci/run installs Debian postgresql';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL tool, as the `postgres` account when we are root. */
function runTool(binDir: string, tool: string, args: string[]): void {
  const command = join(binDir, tool);
  const result = isRoot()
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout || result.error}`);
  }
}

function postgresUid(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Creates and starts a cluster; throws when the binaries are missing (check `postgresMissingReason` first).
 * Tests run with fsync off; `durable` keeps it on, for benchmarks that compare durable commits.
 */
export async function startTestPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error(postgresMissingReason());
  const base = mkdtempSync(join(tmpdir(), 'pipework-pg-'));
  const dataDir = join(base, 'data');
  if (isRoot()) {
    const { uid, gid } = postgresUid();
    chownSync(base, uid, gid);
  }
  chmodSync(base, 0o700);
  const port = await freePort();
  runTool(binDir, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const fsync = options.durable ? '' : ' -c fsync=off';
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${base}${fsync} -c max_connections=30`;
  runTool(binDir, 'pg_ctl', [
    '-D',
    dataDir,
    '-o',
    serverOptions,
    '-l',
    join(base, 'log'),
    '-w',
    '-t',
    '30',
    'start',
  ]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runTool(binDir, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/** An empty schema of a test cluster: as many pools on it as the test wants instances, and its own channel. */
export interface TestSchema {
  url: string;
  /** A new pool on the schema: one per simulated instance. */
  pool(max?: number): pg.Pool;
  /** What a single client (an instance's listening connection, a sync bridge) connects with. */
  connection: pg.ClientConfig;
  /** A NOTIFY channel of this schema alone (channels are database-wide). */
  channel: string;
  /** Ends the pools it made, then drops the schema and all in it. */
  drop(): Promise<void>;
}

let schemas = 0;

/** Creates an empty schema named `<prefix>_<pid>_<n>` on the cluster at `url`. */
export async function freshTestSchema(url: string, prefix: string): Promise<TestSchema> {
  const schema = `${prefix}_${process.pid}_${++schemas}`;
  const admin = new pg.Client(url);
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const connection: pg.ClientConfig = { connectionString: url, options: `-c search_path=${schema}` };
  const pools: pg.Pool[] = [];
  return {
    url,
    connection,
    channel: `pipework_events_${schema}`,
    pool(max = 4) {
      const pool = new pg.Pool({ ...connection, max });
      pools.push(pool);
      return pool;
    },
    async drop() {
      await Promise.all(pools.filter((p) => !p.ended).map((p) => p.end()));
      const cleanup = new pg.Client(url);
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}
