/**
 * The PostgreSQL backup procedure of docs/operations.md, for real: a server on a throwaway PostgreSQL takes
 * properties, a user and a drive file; `npm run backup` (scripts/backup.mjs: `pg_dump --format=custom`, then
 * the drive and outbox folders) runs while writes keep arriving; the dump is restored with `pg_restore` into
 * a fresh database, a second server starts on it with the backup's folders, and everything is read back.
 */
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepWriting, put, run, runBackup, tempFolders, writeBeforeBackup } from '../testing/backup-scenario';
import { callCommand } from '../testing/command-forms';
import { http } from '../testing/http-client';
import {
  type TestPostgres,
  postgresBinDir,
  postgresMissingReason,
  startTestPostgres,
} from '../testing/postgres';
import { startTestServer, type TestServer } from '../testing/test-server';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL backup tests skipped: ${pgMissing}`);

/** Accepted by the test cluster's trust authentication; the backup must keep it off pg_dump's command line. */
const PASSWORD = 'backup-secret-pw';
const { folder, removeAll } = tempFolders();
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(() => {
  postgres?.stop();
  removeAll();
});

/** The test cluster's URL for `database`, with the password. */
const urlOf = (database: string) => {
  const url = new URL(postgres!.url);
  url.password = PASSWORD;
  url.pathname = `/${database}`;
  return url.href;
};

async function sql(database: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** A `pg_dump` first on PATH that writes down its arguments and PGPASSWORD, then runs the real one. */
function recordingPgDump(): { path: string; argv: () => string; password: () => string } {
  const dir = folder('bin');
  const script = join(dir, 'pg_dump');
  writeFileSync(
    script,
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/argv'\nprintf '%s' "$PGPASSWORD" > '${dir}/password'\n` +
      `exec '${join(postgresBinDir()!, 'pg_dump')}' "$@"\n`,
  );
  chmodSync(script, 0o755);
  return {
    path: `${dir}${delimiter}${process.env.PATH ?? ''}`,
    argv: () => readFileSync(join(dir, 'argv'), 'utf8'),
    password: () => readFileSync(join(dir, 'password'), 'utf8'),
  };
}

const get = async (server: TestServer, key: string) =>
  (await callCommand('GET', server.url, 'property.get', { key }, server.adminAuth)).json?.value;
const TOKEN_PATH = '/auth/realms/pipework/protocol/openid-connect/token';
const login = (server: TestServer, username: string, password: string) =>
  http(server.url, TOKEN_PATH, {
    type: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'cli', username, password }).toString(),
  });

describe.skipIf(pgMissing !== undefined)(
  'npm run backup on PostgreSQL while the server runs, then restore',
  () => {
    it('restores the writes acknowledged before the dump, a user who can log in, the drive and the outbox', async () => {
      await sql('postgres', 'CREATE DATABASE live');
      const live = folder('live');
      const server = await startTestServer({
        env: { PIPEWORK_DATA: live, PIPEWORK_DATABASE_URL: urlOf('live') },
      });
      let restored: TestServer | undefined;
      let liveClosed = false;
      try {
        const mailName = await writeBeforeBackup(server);
        const created = await callCommand(
          'pipeline',
          server.url,
          'iam.user.create',
          { name: 'carol', password: 'carol-pw-1234' },
          server.adminAuth,
        );
        expect(created.status).toBe(200);

        // Writes keep arriving during the backup, one after the other: it must neither fail nor block them.
        const writer = keepWriting(server);
        const pgDump = recordingPgDump();
        const target = join(folder('backup'), 'copy');
        const { stdout } = await runBackup(target, {
          PATH: pgDump.path,
          PIPEWORK_DATA: live,
          PIPEWORK_DATABASE_URL: urlOf('live'),
        });
        const during = await writer.stop();
        expect(stdout).toContain(`${join(target, 'pipework.pgdump')} and drive, mail-outbox`);
        expect(during).toBeGreaterThan(0);
        // The password reached pg_dump through its environment, not its command line.
        expect(pgDump.password()).toBe(PASSWORD);
        expect(pgDump.argv()).toContain('--format=custom');
        expect(pgDump.argv()).toContain(`127.0.0.1:${postgres!.port}/live`);
        expect(pgDump.argv()).not.toContain(PASSWORD);

        // Restore as docs/operations.md says: the instances stopped, a new empty database, pg_restore, a
        // server on it with the backup's folders.
        await server.close();
        liveClosed = true;
        await sql('postgres', 'CREATE DATABASE restored');
        const tables = await sql(
          'restored',
          "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
        );
        expect(tables.rows[0].n).toBe(0);
        await run(join(postgresBinDir()!, 'pg_restore'), [
          `--dbname=${urlOf('restored')}`,
          '--no-owner',
          '--single-transaction',
          '--exit-on-error',
          join(target, 'pipework.pgdump'),
        ]);
        const fresh = folder('restored');
        for (const name of ['drive', 'mail-outbox'])
          cpSync(join(target, name), join(fresh, name), { recursive: true });
        restored = await startTestServer({
          env: { PIPEWORK_DATA: fresh, PIPEWORK_DATABASE_URL: urlOf('restored') },
        });

        for (const i of [0, 7, 19]) expect(await get(restored, `global/backup/item/${i}`)).toBe(`item ${i}`);
        // One snapshot: the writes made during the dump are there up to some point, with no gap before it.
        const listed = await callCommand(
          'GET',
          restored.url,
          'property.list',
          { pattern: 'global/backup/during/*' },
          restored.adminAuth,
        );
        const indexes = listed.json
          .map((p: { key: string }) => Number(p.key.split('/').pop()))
          .sort((a: number, b: number) => a - b);
        expect(indexes).toEqual(indexes.map((_: number, i: number) => i));
        expect(indexes.length).toBeLessThanOrEqual(during);

        const token = await login(restored, 'carol', 'carol-pw-1234');
        expect(token.status).toBe(200);
        const whoAmI = await http(restored.url, '/api/v3/pipeline', {
          auth: `Bearer ${token.json.access_token}`,
          type: 'application/json',
          body: JSON.stringify({ pipeline: [{ set: { value: '#{@user.username()}' } }] }),
        });
        expect(whoAmI.text).toBe('carol');
        const file = await fetch(`${restored.url}/api/v3/command/drive.read?path=reports/q1.csv`, {
          headers: { authorization: restored.adminAuth },
        });
        expect(await file.text()).toBe('a,b\n1,2\n');
        const outbox = await callCommand('GET', restored.url, 'mail.outbox.list', {}, restored.adminAuth);
        expect(outbox.json.map((m: { name: string }) => m.name)).toEqual([mailName]);
        // The restored installation takes writes again (its sequences continue after the dump's).
        expect((await put(restored, 'global/backup/after', 'after')).status).toBe(200);
        expect(await get(restored, 'global/backup/after')).toBe('after');
      } finally {
        await restored?.close();
        if (!liveClosed) await server.close();
      }
    }, 120_000);

    it('fails with a message, and no password in it, when the database cannot be read or the data folder is missing', async () => {
      const backupWith = (env: Record<string, string>) =>
        runBackup(join(folder('backup'), 'copy'), env).catch(
          (error: { code: number; stderr: string }) => error,
        );
      const unreachable = new URL(urlOf('live'));
      unreachable.pathname = '/no_such_database';
      const failed = await backupWith({
        PIPEWORK_DATA: folder('data'),
        PIPEWORK_DATABASE_URL: unreachable.href,
      });
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('pg_dump failed') });
      expect(failed).toMatchObject({ stderr: expect.stringContaining('no_such_database') });
      expect((failed as { stderr: string }).stderr).not.toContain(PASSWORD);
      const noFolder = join(folder('data'), 'missing');
      expect(
        await backupWith({ PIPEWORK_DATA: noFolder, PIPEWORK_DATABASE_URL: urlOf('live') }),
      ).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`No data folder at ${noFolder}`),
      });
    });
  },
);
