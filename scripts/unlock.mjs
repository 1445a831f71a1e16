// `npm run unlock -- <username>`: lifts every login lock and failure count of a user, on the server itself.
// The recovery path when an admin cannot sign in (docs/auth.md): it needs access to the installation's
// database, not credentials. It reads the same settings as the server: PIPEWORK_DATABASE_URL (PostgreSQL) or
// else the SQLite file in PIPEWORK_DATA (default ./data). A running server sees the change at its next check
// of the name (a lock in its memory is always confirmed in the database before it refuses).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';

const DELETE = 'DELETE FROM iam_login_failure WHERE lower(username) = lower($1)';

/** Deletes the user's failure rows; returns how many there were. */
export async function unlock(username, env = process.env) {
  if (!username) throw new Error('Usage: npm run unlock -- <username>');
  const url = env.PIPEWORK_DATABASE_URL?.trim();
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(DELETE, [username])).rowCount ?? 0;
    } finally {
      await client.end();
    }
  }
  const file = join(resolve(env.PIPEWORK_DATA ?? 'data'), 'pipework.sqlite');
  if (!existsSync(file)) throw new Error(`No Pipework database at ${file} (set PIPEWORK_DATA).`);
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    return db.prepare(DELETE.replace('$1', '?')).run(username).changes;
  } finally {
    db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const username = process.argv[2];
  unlock(username).then(
    (rows) => {
      console.log(
        rows > 0
          ? `Unlocked ${username}: ${rows} failure record(s) removed.`
          : `${username} had no failed logins or locks.`,
      );
    },
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
