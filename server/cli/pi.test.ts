import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const run = promisify(execFile);
const PI = fileURLToPath(new URL('../../bin/pi.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pi-cli-'));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/app-examples', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function pi(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    PIPEWORK_URL: server.url,
    PIPEWORK_USER: 'admin',
    PIPEWORK_PASSWORD: TEST_ADMIN_PASSWORD,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [PI, ...args], { env, cwd: work });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the pi CLI', () => {
  it('runs a command with parameters', async () => {
    const result = await pi('command', 'datetime', 'format=yyyy');
    expect(result).toMatchObject({ code: 0, stdout: `${new Date().getUTCFullYear()}\n` });
  });

  it('runs a local pipeline file and prints JSON', async () => {
    writeFileSync(
      join(work, 'hello.pi.yaml'),
      'pipeline:\n  - log: "BODY: #{body.text}"\nbody:\n  text: hello\n',
    );
    const result = await pi('run', 'hello.pi.yaml');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ text: 'hello' });
  });

  it('runs a pipeline URI', async () => {
    expect((await pi('uri', 'set.body?value=a|log')).stdout).toBe('a\n');
  });

  it('says what is wrong and where, with the file name, and fails', async () => {
    writeFileSync(join(work, 'broken.pi.yaml'), 'pipeline:\n  - log:\n      message: "#{body.a +}"\n');
    const result = await pi('run', 'broken.pi.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^pi: PEL_SYNTAX at broken\.pi\.yaml:3:\d+ in log \(step 0\): /);
  });

  it('validates a file without running it', async () => {
    writeFileSync(join(work, 'unknown.pi.yaml'), 'pipeline:\n  - log: a\n  - no.such.command\n');
    const result = await pi('validate', 'unknown.pi.yaml');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('unknown.pi.yaml:3:5: error COMMAND_NOT_FOUND');
  });

  it('publishes a folder of real apps, then only what changed, runs a stored pipeline and deletes', async () => {
    const apps = join(work, 'apps');
    cpSync(CORPUS, apps, { recursive: true });
    const first = await pi('publish', 'apps');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^(\d+) of \1 files published/m);
    const again = await pi('publish', 'apps');
    expect(again.stdout).toMatch(/^0 of \d+ files published/m);
    writeFileSync(join(apps, 'global/app/demo/config/app.json'), '{"title": "Changed"}');
    const changed = await pi('publish', 'apps');
    expect(changed.stdout).toMatch(/^published global\/app\/demo\/config\/app \(application\/json\)$/m);
    expect(changed.stdout).toMatch(/^1 of \d+ files published/m);

    const setup = await pi('pipeline', 'global/app/demo/setup/00-createIAMEntities');
    expect(setup.code, setup.stderr).toBe(0);
    expect(server.services.iam.roles.byName('CAN_APP_DEMO')).toBeDefined();

    const removed = await pi('delete', 'global/app/demo/**');
    expect(removed.code, removed.stderr).toBe(0);
    const left = await pi('command', 'property.keys', 'pattern=global/app/demo/**');
    expect(JSON.parse(left.stdout)).toEqual([]);
  });

  it('reports bad credentials', async () => {
    const result = await pi('command', 'datetime', '--user', 'admin:wrong');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('UNAUTHENTICATED');
  });
});
