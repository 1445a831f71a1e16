// `npm run backup -- <folder>`: a consistent copy of a Pipework data folder, taken while the server runs.
// The database is copied with SQLite's `VACUUM INTO` (a transactional snapshot, safe next to a live writer);
// the drive and the mail outbox are copied file by file (the drive writes each file by rename, so every file
// copied is whole; unfinished uploads in the drive's temporary folder are left out). Restore: stop the server,
// copy the backup folder's contents into an empty PIPEWORK_DATA folder, start. See docs/operations.md.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'pipework.sqlite';
export const COPIED_FOLDERS = ['drive', 'mail-outbox'];
const DRIVE_TEMPORARY_FOLDER = '.tmp';

/**
 * Backs up the data folder `dataDir` into `target` (which must not exist or be empty) and returns what was
 * copied. The live database is only read: `VACUUM INTO` waits up to `busyMillis` for a writer to finish.
 */
export function backup(dataDir, target, { busyMillis = 10_000 } = {}) {
  const source = resolve(dataDir);
  const into = resolve(target);
  const databaseFile = join(source, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new Error(`No Pipework database at ${databaseFile}.`);
  if (existsSync(into) && readdirSync(into).length > 0) throw new Error(`${into} is not empty.`);
  mkdirSync(into, { recursive: true });
  const db = new Database(databaseFile, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${busyMillis}`);
    db.prepare('VACUUM INTO ?').run(join(into, DATABASE_FILE));
  } finally {
    db.close();
  }
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
  const check = new Database(join(into, DATABASE_FILE), { readonly: true });
  try {
    const integrity = check.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`The backup's database fails its integrity check: ${integrity}`);
  } finally {
    check.close();
  }
  return { database: join(into, DATABASE_FILE), folders };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (!target || target.startsWith('-')) {
    console.error(
      'Usage: npm run backup -- <empty or new folder>   (the data folder is PIPEWORK_DATA, default ./data)',
    );
    process.exit(2);
  }
  try {
    const result = backup(process.env.PIPEWORK_DATA ?? 'data', target);
    console.log(
      `Backed up the database to ${result.database} and ${result.folders.join(', ') || 'no folders'}.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
