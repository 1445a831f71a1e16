/**
 * What the backup tests on SQLite and on PostgreSQL share: temporary folders removed after the file, the data
 * written before `npm run backup` (properties, a drive file, a mail in the outbox), writes that keep arriving
 * while it runs, and the backup script itself.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { callCommand } from './command-forms';
import { http } from './http-client';
import type { TestServer } from './test-server';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const run = promisify(execFile);

/** Temporary folders for one test file; `removeAll` (in its afterAll) deletes them. */
export function tempFolders() {
  const folders: string[] = [];
  return {
    folder(name: string) {
      const dir = mkdtempSync(join(tmpdir(), `pipework-${name}-`));
      folders.push(dir);
      return dir;
    },
    removeAll: () => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}

/** `npm run backup <target>` from the project folder, with `env` over the test's environment. */
export const runBackup = (target: string, env: Record<string, string>) =>
  run(process.execPath, ['scripts/backup.mjs', target], { cwd: ROOT, env: { ...process.env, ...env } });

export const put = (server: TestServer, key: string, value: unknown) =>
  callCommand('pipeline', server.url, 'property.schema.put', { key, value }, server.adminAuth);

/**
 * Writes what a backup must keep: `global/backup/item/0..19`, the drive file reports/q1.csv and one mail in
 * the outbox; answers the outbox name of that mail.
 */
export async function writeBeforeBackup(server: TestServer): Promise<string> {
  for (let i = 0; i < 20; i++)
    expect((await put(server, `global/backup/item/${i}`, `item ${i}`)).status).toBe(200);
  const saved = await http(server.url, '/api/v3/command/drive.save?path=reports/q1.csv', {
    auth: server.adminAuth,
    type: 'text/csv',
    body: 'a,b\n1,2\n',
  });
  expect(saved.status).toBe(200);
  const mail = await callCommand(
    'pipeline',
    server.url,
    'mail.send',
    { to: 'ann@example.com', subject: 'Backed up', message: 'kept' },
    server.adminAuth,
  );
  expect(mail.status).toBe(200);
  return mail.json.outbox;
}

/**
 * Writes `global/backup/during/<n>` one after the other until `stop`, which answers how many were
 * acknowledged: the writes that keep arriving while a backup runs.
 */
export function keepWriting(server: TestServer): { stop(): Promise<number> } {
  let writing = true;
  let during = 0;
  const writer = (async () => {
    while (writing) {
      expect((await put(server, `global/backup/during/${during}`, during)).status).toBe(200);
      during++;
    }
  })();
  return {
    async stop() {
      writing = false;
      await writer;
      return during;
    },
  };
}
