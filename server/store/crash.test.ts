/**
 * Durability under `kill -9`: the real server process takes concurrent writes over HTTP and is killed at a
 * random moment, several times; after each kill every acknowledged write must be there and SQLite's
 * integrity check must pass.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = 'crash-test-password';
const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const WRITERS = 4;
const ROUNDS = 5;

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `server/main.ts` in its own process; resolves with its URL once it listens. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PIPEWORK_DATA: dataDir,
      PIPEWORK_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
}

/** Writes until the server dies; records what was acknowledged (a 200 came back). */
async function writer(
  url: string,
  id: number,
  round: number,
  acked: Map<string, string>,
  counter: { value: number },
) {
  for (let n = 0; ; n++) {
    const key = `global/crash/r${round}/w${id}/k${n}`;
    const value = `r${round}-w${id}-${n}-${'x'.repeat(n % 50)}`;
    try {
      const response = await fetch(
        `${url}/api/v3/command/property.schema.put?${new URLSearchParams({ key, value })}`,
        {
          headers: { authorization: AUTH },
        },
      );
      if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
      acked.set(key, value);
      if (id === 0) {
        const next = counter.value + 1;
        const put = await fetch(
          `${url}/api/v3/command/property.put?${new URLSearchParams({ key: 'global/crash/counter', value: String(next) })}`,
          {
            headers: { authorization: AUTH },
          },
        );
        if (put.status === 200) counter.value = next;
      }
    } catch {
      return; // the server is gone
    }
  }
}

describe('crash safety', () => {
  it('keeps every acknowledged write through repeated SIGKILLs', async () => {
    const acked = new Map<string, string>();
    const counter = { value: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const { child, url } = await startServer();
      if (round === 0) {
        const created = await fetch(
          `${url}/api/v3/command/property.schema.put?key=global/crash/counter&value=0`,
          {
            headers: { authorization: AUTH },
          },
        );
        expect(created.status).toBe(200);
      }
      const before = acked.size;
      const writers = Array.from({ length: WRITERS }, (_, id) => writer(url, id, round, acked, counter));
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 1200));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await Promise.all(writers);
      expect(acked.size).toBeGreaterThan(before);

      const db = new Database(join(dataDir, 'pipework.sqlite'));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const read = db.prepare<[string], { value: string }>('SELECT value FROM property WHERE key = ?');
        const missing = [...acked].filter(([key, value]) => read.get(key)?.value !== value);
        expect(missing).toEqual([]);
        // The counter holds the last acknowledged put, or one that was in flight at the kill.
        expect(Number(read.get('global/crash/counter')!.value)).toBeGreaterThanOrEqual(counter.value);
      } finally {
        db.close();
      }
    }
    expect(acked.size).toBeGreaterThan(ROUNDS * WRITERS);
  }, 90_000);
});
