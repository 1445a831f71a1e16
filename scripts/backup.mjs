// `npm run backup -- <folder>`: a consistent copy of a Pipework installation, taken while the server runs.
// On SQLite (the default) the database is copied with `VACUUM INTO` (a transactional snapshot, safe next to a
// live writer). On PostgreSQL (`PIPEWORK_DATABASE_URL` set) it is dumped with `pg_dump --format=custom` (one
// snapshot of the whole database) into `pipework.pgdump`; the password of the URL goes to pg_dump through
// PGPASSWORD, never on its command line. Then the drive and the mail outbox of PIPEWORK_DATA are copied file
// by file (the drive writes each file by rename, so every file copied is whole; unfinished uploads in the
// drive's temporary folder are left out). Restore: see docs/operations.md.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'pipework.sqlite';
export const POSTGRES_DUMP_FILE = 'pipework.pgdump';
export const COPIED_FOLDERS = ['drive', 'mail-outbox'];
const DRIVE_TEMPORARY_FOLDER = '.tmp';
const POSTGRES_BINARIES = '/usr/lib/postgresql';

/**
 * Backs up the data folder `dataDir` into `target` (which must not exist or be empty) and returns what was
 * copied. The live database is only read: `VACUUM INTO` waits up to `busyMillis` for a writer to finish.
 */
export function backup(dataDir, target, { busyMillis = 10_000 } = {}) {
  const source = resolve(dataDir);
  const into = resolve(target);
  const databaseFile = join(source, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new Error(`No Pipework database at ${databaseFile}.`);
  prepareTarget(into);
  const db = new Database(databaseFile, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${busyMillis}`);
    db.prepare('VACUUM INTO ?').run(join(into, DATABASE_FILE));
  } finally {
    db.close();
  }
  const folders = copyFolders(source, into);
  const check = new Database(join(into, DATABASE_FILE), { readonly: true });
  try {
    const integrity = check.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`The backup's database fails its integrity check: ${integrity}`);
  } finally {
    check.close();
  }
  return { database: join(into, DATABASE_FILE), folders };
}

/**
 * Backs up an installation on PostgreSQL: the database at `databaseUrl` with `pg_dump --format=custom` into
 * `<target>/pipework.pgdump` (checked with `pg_restore --list`), then the folders of `dataDir`. `env` is the
 * environment the PostgreSQL tools are looked up in and run with.
 */
export function backupPostgres(databaseUrl, dataDir, target, env = process.env) {
  const source = resolve(dataDir);
  const into = resolve(target);
  if (!existsSync(source)) throw new Error(`No data folder at ${source} (PIPEWORK_DATA).`);
  const pgDump = findPostgresTool('pg_dump', env);
  const pgRestore = findPostgresTool('pg_restore', env);
  prepareTarget(into);
  const dumpFile = join(into, POSTGRES_DUMP_FILE);
  const connection = libpqConnection(databaseUrl, env);
  runTool(pgDump, ['--format=custom', `--file=${dumpFile}`, `--dbname=${connection.dbname}`], connection.env);
  runTool(pgRestore, ['--list', dumpFile], env);
  return { database: dumpFile, folders: copyFolders(source, into) };
}

/**
 * Where a PostgreSQL client tool is: the first on PATH, else the newest `/usr/lib/postgresql/<version>/bin`
 * (Debian's layout, which puts only some versions on PATH). Throws with what to install when there is none.
 */
export function findPostgresTool(tool, env = process.env, binaries = POSTGRES_BINARIES) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, tool))) return join(dir, tool);
  }
  const versions = existsSync(binaries)
    ? readdirSync(binaries)
        .filter((version) => existsSync(join(binaries, version, 'bin', tool)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return join(binaries, versions[0], 'bin', tool);
  throw new Error(
    `${tool} was not found on PATH nor in ${binaries}/*/bin: install the PostgreSQL client tools ` +
      `(Debian: apt-get install postgresql-client), of the server's major version or newer.`,
  );
}

/**
 * The URL as a libpq connection URI without its password, and the environment that carries the password
 * (PGPASSWORD), so that nothing secret is on a command line that `ps` shows.
 */
export function libpqConnection(databaseUrl, env = process.env) {
  let url;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error('PIPEWORK_DATABASE_URL is not a URL (postgres://user@host:5432/db).');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`PIPEWORK_DATABASE_URL must be a postgres:// URL; '${url.protocol}' is not supported.`);
  const childEnv = { ...env };
  const password = url.password ? decodeURIComponent(url.password) : url.searchParams.get('password');
  if (password !== null && password !== '') childEnv.PGPASSWORD = password;
  url.password = '';
  url.searchParams.delete('password');
  return { dbname: url.href, env: childEnv };
}

function prepareTarget(into) {
  if (existsSync(into) && readdirSync(into).length > 0) throw new Error(`${into} is not empty.`);
  mkdirSync(into, { recursive: true });
}

function copyFolders(source, into) {
  const folders = [];
  for (const folder of COPIED_FOLDERS) {
    const from = join(source, folder);
    if (!existsSync(from)) continue;
    cpSync(from, join(into, folder), {
      recursive: true,
      preserveTimestamps: true,
      filter: (path) => !(folder === 'drive' && basename(path) === DRIVE_TEMPORARY_FOLDER),
    });
    folders.push(folder);
  }
  return folders;
}

/** Runs a PostgreSQL tool; its own message (which never holds the password) when it fails. */
function runTool(command, args, env) {
  try {
    execFileSync(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    const stderr = typeof error?.stderr === 'string' ? error.stderr.trim() : '';
    throw new Error(`${basename(command)} failed: ${stderr || error?.message || error}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (!target || target.startsWith('-')) {
    console.error(
      'Usage: npm run backup -- <empty or new folder>   (the data folder is PIPEWORK_DATA, default ./data; ' +
        'with PIPEWORK_DATABASE_URL the PostgreSQL database is dumped)',
    );
    process.exit(2);
  }
  try {
    const dataDir = process.env.PIPEWORK_DATA ?? 'data';
    const databaseUrl = process.env.PIPEWORK_DATABASE_URL?.trim();
    const result = databaseUrl ? backupPostgres(databaseUrl, dataDir, target) : backup(dataDir, target);
    console.log(
      `Backed up the database to ${result.database} and ${result.folders.join(', ') || 'no folders'}.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
