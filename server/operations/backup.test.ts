/**
 * The backup procedure of docs/operations.md, for real: data written into a running server, `npm run backup`
 * (scripts/backup.mjs, `VACUUM INTO` + the drive and outbox folders) taken while writes keep arriving, the
 * backup restored into a fresh data folder, a server started there, and the data read back over HTTP.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { keepWriting, put, runBackup, tempFolders, writeBeforeBackup } from '../testing/backup-scenario';
import { callCommand } from '../testing/command-forms';
import { startTestServer, type TestServer } from '../testing/test-server';

const { folder, removeAll } = tempFolders();
afterAll(removeAll);

describe('npm run backup while the server runs, then restore', () => {
  it('restores every write acknowledged before the backup, the drive files and the outbox', async () => {
    const live = folder('live');
    const server = await startTestServer({ env: { PIPEWORK_DATA: live } });
    let restored: TestServer | undefined;
    try {
      const mailName = await writeBeforeBackup(server);

      // Writes keep arriving during the backup: it must neither fail nor block them.
      const writer = keepWriting(server);
      const target = join(folder('backup'), 'copy');
      const { stdout } = await runBackup(target, { PIPEWORK_DATA: live });
      const during = await writer.stop();
      expect(stdout).toContain('drive, mail-outbox');
      expect(during).toBeGreaterThan(0);
      const copy = new Database(join(target, 'pipework.sqlite'), { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      copy.close();

      // Restore: the backup's contents into an empty data folder, and a server started on it.
      const fresh = folder('restored');
      cpSync(target, fresh, { recursive: true });
      restored = await startTestServer({ env: { PIPEWORK_DATA: fresh } });
      for (const i of [0, 7, 19]) {
        const got = await callCommand(
          'GET',
          restored.url,
          'property.get',
          { key: `global/backup/item/${i}` },
          restored.adminAuth,
        );
        expect(got.json.value).toBe(`item ${i}`);
      }
      const file = await fetch(`${restored.url}/api/v3/command/drive.read?path=reports/q1.csv`, {
        headers: { authorization: restored.adminAuth },
      });
      expect(await file.text()).toBe('a,b\n1,2\n');
      const outbox = await callCommand('GET', restored.url, 'mail.outbox.list', {}, restored.adminAuth);
      expect(outbox.json.map((m: { name: string }) => m.name)).toEqual([mailName]);
      // The restored server takes writes again.
      expect((await put(restored, 'global/backup/after', 1)).status).toBe(200);
    } finally {
      await restored?.close();
      await server.close();
    }
  });

  it('refuses a folder that is not empty and a data folder without a database, with a message', async () => {
    const backupOf = (dataDir: string, target: string) =>
      runBackup(target, { PIPEWORK_DATA: dataDir }).catch((error: { code: number; stderr: string }) => error);
    const notEmpty = folder('busy');
    cpSync(fileURLToPath(import.meta.url), join(notEmpty, 'other.txt'));
    const withDatabase = folder('data');
    new Database(join(withDatabase, 'pipework.sqlite')).close();
    expect(await backupOf(withDatabase, notEmpty)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('is not empty'),
    });
    expect(await backupOf(folder('empty'), join(notEmpty, 'new'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No Pipework database'),
    });
  });
});
