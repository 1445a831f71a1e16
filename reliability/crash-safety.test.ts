/**
 * Crash safety: property writes, attachment uploads and drive saves run concurrently while the server is killed
 * with SIGKILL at a random moment, round after round. After each kill the database passes
 * `PRAGMA integrity_check`, and after the restart every acknowledged write is there with its acknowledged value
 * or a later one, and no file is torn.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from './support/requests';
import { killHard, startServerProcess } from './support/server-process';

const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 20);
const KEYS = 8;
const APP = 'global/app/crash';
const dataDir = mkdtempSync(join(tmpdir(), 'pipework-crash-'));
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** What the server acknowledged: the latest counter per key, and the content hash of each attachment and file. */
const acked = { counters: new Map<number, number>(), attachments: new Map<string, string>() };
const totals = { acknowledged: 0, lost: 0, rounds: 0 };
let nextValue = 1;

/** Each writer owns its keys, so the values of one key are written one after the other and only grow. */
async function propertyWriter(url: string, stop: () => boolean, writer: number, writers: number) {
  while (!stop()) {
    const k = writer + writers * Math.floor((Math.random() * KEYS) / writers);
    const value = nextValue++;
    const answer = await command(url, 'property.schema.put', {
      key: `${APP}/counter/k${k}`,
      value: String(value),
    });
    if (answer.status === 200) {
      acked.counters.set(k, Math.max(acked.counters.get(k) ?? 0, value));
      totals.acknowledged++;
    }
  }
}

async function attachmentWriter(url: string, stop: () => boolean, round: number) {
  for (let i = 0; !stop(); i++) {
    const name = `r${round}-a${i}.bin`;
    const data = randomBytes(16_000 + Math.floor(Math.random() * 200_000));
    const answer = await command(
      url,
      'property.attachment.put',
      { key: `${APP}/files`, name },
      { data, type: 'application/octet-stream' },
    );
    if (answer.status === 200) {
      acked.attachments.set(name, sha(data));
      totals.acknowledged++;
    }
  }
}

/** Every content sent to each drive path, in order; the acknowledged one's index. */
const driveAttempts = new Map<string, string[]>();
const driveAcked = new Map<string, number>();

async function driveWriter(url: string, stop: () => boolean) {
  for (let i = 0; !stop(); i++) {
    // The same few paths are written again and again, so a torn or mixed replacement would show.
    const path = `crash/f${i % 4}.bin`;
    const data = randomBytes(50_000 + Math.floor(Math.random() * 500_000));
    const attempts = driveAttempts.get(path) ?? [];
    driveAttempts.set(path, attempts);
    const index = attempts.push(sha(data)) - 1;
    const answer = await command(url, 'drive.save', { path }, { data, type: 'application/octet-stream' });
    if (answer.status === 200) {
      driveAcked.set(path, index);
      totals.acknowledged++;
    }
  }
}

function integrityOf(databaseFile: string): string {
  const db = new Database(databaseFile);
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? 'no answer';
  } finally {
    db.close();
  }
}

async function verify(url: string): Promise<void> {
  for (const [k, value] of acked.counters) {
    const answer = await command(url, 'property.value.get', { key: `${APP}/counter/k${k}` });
    const stored = Number(answer.bytes.toString());
    if (!(answer.status === 200 && stored >= value)) totals.lost++;
    expect({ k, status: answer.status, atLeast: stored >= value }).toEqual({ k, status: 200, atLeast: true });
  }
  for (const [name, hash] of acked.attachments) {
    const answer = await command(url, 'property.attachment.content', { key: `${APP}/files`, name });
    if (answer.status !== 200 || sha(answer.bytes) !== hash) totals.lost++;
    expect({ name, status: answer.status, same: sha(answer.bytes) === hash }).toEqual({
      name,
      status: 200,
      same: true,
    });
  }
  for (const [path, index] of driveAcked) {
    const answer = await command(url, 'drive.read', { path });
    // The acknowledged content or a later one sent whole (it may have landed before the kill), never a mix.
    const found = driveAttempts.get(path)!.indexOf(sha(answer.bytes));
    if (answer.status !== 200 || found < index) totals.lost++;
    expect({ path, status: answer.status, wholeAndCurrent: found >= index }).toEqual({
      path,
      status: 200,
      wholeAndCurrent: true,
    });
  }
}

describe('SIGKILL at random moments during concurrent writes', () => {
  afterAll(() => {
    console.log(
      `crash safety: ${totals.rounds} rounds, ${totals.acknowledged} acknowledged writes, ${totals.lost} lost`,
    );
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged write in ${ROUNDS} rounds`, async () => {
    let server = await startServerProcess(dataDir);
    expect(
      (await command(server.url, 'property.schema.put', { key: `${APP}/files`, value: 'files' })).status,
    ).toBe(200);
    for (let round = 0; round < ROUNDS; round++) {
      let stopped = false;
      const stop = () => stopped;
      const writers = [
        propertyWriter(server.url, stop, 0, 3),
        propertyWriter(server.url, stop, 1, 3),
        propertyWriter(server.url, stop, 2, 3),
        attachmentWriter(server.url, stop, round),
        driveWriter(server.url, stop),
      ];
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 600));
      await killHard(server);
      stopped = true;
      await Promise.all(writers);
      expect(integrityOf(join(dataDir, 'pipework.sqlite'))).toBe('ok');
      server = await startServerProcess(dataDir);
      await verify(server.url);
      totals.rounds++;
    }
    await killHard(server);
    expect(totals.lost).toBe(0);
    expect(totals.acknowledged).toBeGreaterThan(ROUNDS * 5);
  }, 600_000);
});
