/** `pi history` and `pi diff`: the real pi binary against a real server. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const PI = fileURLToPath(new URL('../../bin/pi.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pi-history-'));

let server: TestServer;
beforeAll(async () => {
  // a real socket: the pi CLI, a child process, is the client
  server = await startTestServer({ socket: true });
});
afterAll(() => server.close());

function pi(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
  const env = {
    ...base,
    XDG_CONFIG_HOME: join(work, 'config'),
    PIPEWORK_URL: server.url,
    PIPEWORK_USER: 'admin',
    PIPEWORK_PASSWORD: TEST_ADMIN_PASSWORD,
  };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [PI, ...args], { env, cwd: work }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
    child.stdin!.end(input);
  });
}

describe('pi history and pi diff', () => {
  it('lists versions, diffs two, and restores one', async () => {
    const key = 'global/app/cli/pipeline/p';
    expect((await pi(['put', key, '-'], 'pipeline:\n  - log: one\n')).code).toBe(0);
    expect((await pi(['put', key, '-'], 'pipeline:\n  - log: two\n')).code).toBe(0);
    const listed = await pi(['--json', 'history', key]);
    expect(listed.code).toBe(0);
    const versions = JSON.parse(listed.stdout) as { id: number; kind: string }[];
    expect(versions.map((v) => v.kind)).toEqual(['changed', 'created']);
    const table = await pi(['history', key]);
    expect(table.stdout).toMatch(/ID\s+KIND\s+VERSION/);
    const diff = await pi(['diff', key, String(versions[1]!.id), String(versions[0]!.id)]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('-  - log: one');
    expect(diff.stdout).toContain('+  - log: two');
    const restored = await pi(['history', key, '--restore', String(versions[1]!.id)]);
    expect(restored.code).toBe(0);
    expect(restored.stderr).toContain('it is now at version 3');
    expect((await pi(['get', key])).stdout).toBe('pipeline:\n  - log: one\n');
    const bad = await pi(['diff', key, 'nope']);
    expect(bad.code).not.toBe(0);
  }, 120_000);
});
