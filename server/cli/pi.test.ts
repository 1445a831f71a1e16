/** The real `pi` binary (bin/pi.js through node) against a real server, for every verb and its failures. */
import { execFile, spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';
import { readFolder } from './publish';

const PI = fileURLToPath(new URL('../../bin/pi.js', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/app-examples', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pi-cli-'));
const config = join(work, 'config');

let server: TestServer;
beforeAll(async () => {
  // a real socket: the pi CLI, a child process, is the client
  server = await startTestServer({ socket: true });
});
afterAll(() => server.close());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a pi call: no PIPEWORK_* of the machine, our config folder, the admin unless told. */
function environment(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
  const all = {
    ...base,
    XDG_CONFIG_HOME: config,
    PIPEWORK_URL: server.url,
    PIPEWORK_USER: 'admin',
    PIPEWORK_PASSWORD: TEST_ADMIN_PASSWORD,
    ...env,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
}

function pi(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [PI, ...args],
      { env: environment(env), cwd: work, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
    child.stdin!.end(input ?? '');
  });
}

/** pi with no credentials in the environment: only the stored login counts. */
const asStored = { PIPEWORK_USER: undefined, PIPEWORK_PASSWORD: undefined, PIPEWORK_URL: undefined };

describe('pi: help and usage', () => {
  it('generates help for the program and for each verb', async () => {
    const help = await pi(['help']);
    expect(help.code).toBe(0);
    for (const verb of [
      'login',
      'logout',
      'status',
      'command',
      'run',
      'uri',
      'validate',
      'pipeline',
      'schema',
      'commands',
      'list',
      'get',
      'put',
      'delete',
      'test',
      'events',
      'publish',
    ])
      expect(help.stdout).toMatch(new RegExp(`^  ${verb} `, 'm'));
    expect(help.stdout).toContain(
      'Exit codes: 0 ok, 1 failed, 2 usage, 3 authentication or permission, 4 not found',
    );
    const verbHelp = await pi(['publish', '--help']);
    expect(verbHelp.code).toBe(0);
    expect(verbHelp.stdout).toContain('Usage: pi publish [options] <folder>');
    expect(verbHelp.stdout).toContain('--dry-run');
  });

  it('answers an unknown verb, a missing argument and no verb with exit code 2', async () => {
    const unknown = await pi(['frobnicate']);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect((await pi(['get'])).code).toBe(2);
    expect((await pi(['list', 'a', 'b'])).code).toBe(2);
    expect((await pi([])).code).toBe(2);
  });
});

describe('pi: running commands and pipelines', () => {
  it('runs a command with parameters', async () => {
    const result = await pi(['command', 'datetime', 'format=yyyy']);
    expect(result).toMatchObject({ code: 0, stdout: `${new Date().getUTCFullYear()}\n` });
    expect((await pi(['--json', 'command', 'datetime', 'format=yyyy'])).stdout).toBe(
      `"${new Date().getUTCFullYear()}"\n`,
    );
  });

  it('reports an unknown command with exit code 4', async () => {
    const result = await pi(['command', 'no.such.command']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^pi: COMMAND_NOT_FOUND/);
  });

  it('runs a local pipeline file and prints JSON, without colour when not on a terminal', async () => {
    writeFileSync(
      join(work, 'hello.pi.yaml'),
      'pipeline:\n  - log: "BODY: #{body.text}"\nbody:\n  text: hello\n',
    );
    const result = await pi(['run', 'hello.pi.yaml']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ text: 'hello' });
    expect(result.stdout).not.toContain('\x1b[');
  });

  it('runs a pipeline URI', async () => {
    expect((await pi(['uri', 'set.body?value=a|log'])).stdout).toBe('a\n');
  });

  it('says what is wrong and where in a pipeline with an error: CODE at file:line:column, exit code 1', async () => {
    writeFileSync(join(work, 'broken.pi.yaml'), 'pipeline:\n  - log:\n      message: "#{body.a +}"\n');
    const result = await pi(['run', 'broken.pi.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^pi: PEL_SYNTAX at broken\.pi\.yaml:3:\d+ in log \(step 1\): /);
    writeFileSync(join(work, 'fails.pi.yaml'), 'pipeline:\n  - log: a\n  - test: "#{1 == 2}"\n');
    const failing = await pi(['run', 'fails.pi.yaml']);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^pi: ASSERTION_FAILED at fails\.pi\.yaml:3:5 in test \(step 2\)/);
    const json = await pi(['--json', 'run', 'fails.pi.yaml']);
    expect(JSON.parse(json.stderr)).toMatchObject({
      exitCode: 1,
      error: expect.stringMatching(/^ASSERTION_FAILED at fails\.pi\.yaml:3:5/),
    });
  });

  it('validates a file without running it', async () => {
    writeFileSync(join(work, 'unknown.pi.yaml'), 'pipeline:\n  - log: a\n  - no.such.command\n');
    const result = await pi(['validate', 'unknown.pi.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('unknown.pi.yaml:3:5: error COMMAND_NOT_FOUND');
    const json = await pi(['--json', 'validate', 'hello.pi.yaml']);
    expect(json).toMatchObject({ code: 0 });
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('prints the schema', async () => {
    const result = await pi(['schema']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).properties.pipeline).toBeDefined();
  });

  it("lists and describes the server's commands from their contracts", async () => {
    const mail = await pi(['commands', 'mail']);
    expect(mail.code, mail.stderr).toBe(0);
    expect(mail.stdout).toMatch(/^mail\.send\s+\S/m);
    const stamp = await pi(['commands', 'pdf.stamp']);
    expect(stamp.code, stamp.stderr).toBe(0);
    expect(stamp.stdout).toMatch(/^textSize\s+/m);
    expect(stamp.stdout).toMatch(/^parameter\s+type\s+required\s+default\s+description$/m);
    const json = JSON.parse((await pi(['--json', 'commands', 'drive.save'])).stdout);
    expect(json).toMatchObject({ name: 'drive.save' });
    expect(json.parameters.map((p: { name: string }) => p.name)).toContain('path');
    expect((await pi(['commands', 'no-such-words-anywhere'])).code).toBe(4);
  });

  it('reads a missing file as not found (4)', async () => {
    expect((await pi(['run', 'nothing-here.pi.yaml'])).code).toBe(4);
  });
});

describe('pi: login, status, logout', () => {
  const login = () =>
    JSON.parse(readFileSync(join(config, 'pipework', 'login.json'), 'utf8')) as Record<string, unknown>;
  const save = (value: Record<string, unknown>) =>
    writeFileSync(join(config, 'pipework', 'login.json'), JSON.stringify(value));

  it('refuses a wrong password with exit code 3', async () => {
    const result = await pi(
      ['login', server.url, '--username', 'admin', '--password-stdin'],
      asStored,
      'wrong\n',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('UNAUTHENTICATED');
    expect(existsSync(join(config, 'pipework', 'login.json'))).toBe(false);
    const basic = await pi(['status'], { PIPEWORK_PASSWORD: 'wrong' });
    expect(basic.code).toBe(3);
  });

  it('logs in, keeps the tokens owner-only, and says who we are', async () => {
    const result = await pi(
      ['login', server.url, '--username', 'admin', '--password-stdin'],
      asStored,
      `${TEST_ADMIN_PASSWORD}\n`,
    );
    expect(result, result.stderr).toMatchObject({
      code: 0,
      stdout: `Logged in to ${server.url} as admin.\n`,
    });
    expect(statSync(join(config, 'pipework')).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, 'pipework', 'login.json')).mode & 0o777).toBe(0o600);
    const status = await pi(['status'], asStored);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^server\s+http:\/\/127\.0\.0\.1:\d+ \(ok, \d+\.\d+\.\d+\)$/m);
    expect(status.stdout).toMatch(/^user\s+admin$/m);
    expect(status.stdout).toMatch(/^credentials\s+login /m);
    expect(status.stdout).toMatch(/^pi version\s+\d+\.\d+\.\d+$/m);
    const json = JSON.parse((await pi(['--json', 'status'], asStored)).stdout);
    expect(json).toMatchObject({ user: 'admin', server: server.url, serverStatus: 'ok' });
  });

  it('refreshes an expired access token with the stored refresh token', async () => {
    const before = login();
    save({ ...before, accessToken: 'expired.not.valid', accessExpiresAt: Date.now() - 1000 });
    const status = await pi(['--json', 'status'], asStored);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).user).toBe('admin');
    const after = login();
    expect(after.accessToken).not.toBe('expired.not.valid');
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // A token the server refuses before its time is renewed once, too.
    save({ ...after, accessToken: 'refused.by.server', accessExpiresAt: Date.now() + 60_000 });
    expect((await pi(['command', 'datetime', 'format=yyyy'], asStored)).code).toBe(0);
  });

  it('lets the environment win over the stored login', async () => {
    const result = await pi(['status'], { PIPEWORK_USER: 'admin', PIPEWORK_PASSWORD: 'wrong' });
    expect(result.code).toBe(3);
    const token = await pi(['status'], { ...asStored, PIPEWORK_TOKEN: 'not-a-token' });
    expect(token.code).toBe(3);
  });

  it('logs out: the session is revoked at the server and the tokens are gone', async () => {
    const stored = login();
    const result = await pi(['logout'], asStored);
    expect(result).toMatchObject({ code: 0 });
    expect(existsSync(join(config, 'pipework', 'login.json'))).toBe(false);
    const refresh = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/token', {
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'cli',
        refresh_token: String(stored.refreshToken),
      }).toString(),
    });
    expect(refresh.status).toBe(400);
    const bearer = await http(server.url, '/api/v3/command/datetime', {
      auth: `Bearer ${String(stored.accessToken)}`,
    });
    expect(bearer.status).toBe(401);
    const after = await pi(['status'], { ...asStored, PIPEWORK_URL: server.url });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("run 'pi login'");
  });
});

describe('pi: properties', () => {
  it('puts a file, gets its value and metadata, lists it', async () => {
    writeFileSync(join(work, 'settings.json'), '{"colour": "blue"}');
    const put = await pi(['put', 'global/cli/settings', 'settings.json']);
    expect(put).toMatchObject({ code: 0, stdout: 'created global/cli/settings (application/json)\n' });
    expect((await pi(['put', 'global/cli/settings', 'settings.json'])).stdout).toMatch(/^updated /);
    const fromStdin = await pi(['put', 'global/cli/note', '-'], {}, 'a note');
    expect(fromStdin.stdout).toBe('created global/cli/note (text/plain)\n');

    expect(await pi(['get', 'global/cli/settings'])).toMatchObject({ code: 0, stdout: '{"colour": "blue"}' });
    const meta = await pi(['--json', 'get', '--meta', 'global/cli/settings']);
    expect(JSON.parse(meta.stdout)).toMatchObject({ key: 'global/cli/settings', type: 'application/json' });
    expect(JSON.parse(meta.stdout).value).toBeUndefined();
    expect((await pi(['get', '--meta', 'global/cli/settings'])).stdout).toMatch(
      /^type\s+application\/json$/m,
    );

    const list = await pi(['list', 'global/cli/**']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+TYPE\s+UPDATED$/);
    expect(lines[1]).toMatch(/^global\/cli\/note\s+text\/plain\s+\d{4}-/);
    expect(lines[2]).toMatch(/^global\/cli\/settings\s+application\/json\s+\d{4}-/);
    // Columns line up: the type starts at the same place in every row.
    expect(new Set(lines.map((l) => l.search(/(TYPE|text|application)/))).size).toBe(1);
    const json = JSON.parse((await pi(['--json', 'list', 'global/cli/**'])).stdout);
    expect(json.map((p: { key: string }) => p.key)).toEqual(['global/cli/note', 'global/cli/settings']);
  });

  it('answers a missing permission with exit code 3', async () => {
    await pi(['command', 'iam.user.create', 'name=viewer', 'password=viewer-password-1']);
    const result = await pi(['--user', 'viewer:viewer-password-1', 'command', 'iam.user.list']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^pi: FORBIDDEN/);
  });

  it('answers a missing property with exit code 4', async () => {
    const result = await pi(['get', 'global/cli/missing']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^pi: PROPERTY_NOT_FOUND/);
  });

  it('deletes only with --yes when not on a terminal, and says what it deleted', async () => {
    const refused = await pi(['delete', 'global/cli/**']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('would delete 2 properties; add --yes');
    expect((await pi(['get', 'global/cli/note'])).code).toBe(0);
    const deleted = await pi(['--json', 'delete', '--yes', 'global/cli/**']);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: ['global/cli/note', 'global/cli/settings'] });
    expect((await pi(['delete', '--yes', 'global/cli/**'])).code).toBe(4);
  });

  it('follows property events', async () => {
    const child = spawn(process.execPath, [PI, 'events', 'global/ev/**', '--limit', '1'], {
      env: environment({}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const connected = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('Following events')) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await connected;
    await pi(['put', 'global/other/x', '-'], {}, 'not followed');
    await pi(['put', 'global/ev/a', '-'], {}, 'followed');
    const code = await closed;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:]+Z\s+property\.created\s+global\/ev\/a\n$/);
  }, 20_000);
});

describe('pi: app tests and publishing the examples', () => {
  const junit = join(work, 'junit.xml');

  it('publishes the example app and runs its tests, which mock mail.send and pass', async () => {
    const result = await pi(['publish', join(EXAMPLES, 'orders')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('4 created, 0 updated, 0 unchanged, 0 failed.');
    expect(result.stdout).toContain('Tests of global/app/orders:');
    expect(result.stdout).toContain('2 passed, 0 failed, 2 total');
    const again = await pi(['test', 'orders']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^passed\s+\d+ ms\s+global\/app\/orders\/test\/confirm-mails-customer$/m);
  });

  it('reports the failing example test with its line, exit code 1 and JUnit XML', async () => {
    const published = await pi(['publish', '--no-test', join(EXAMPLES, 'orders-broken')]);
    expect(published.code).toBe(0);
    expect(published.stdout).not.toContain('Tests of');
    const result = await pi(['test', 'global/app/ordersbroken/test/**', '--junit', junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAILED global/app/ordersbroken/test/total-fails:8:5');
    expect(result.stdout).toContain('ASSERTION_FAILED: The total of one line of 2 x 3 is 6, not 7');
    expect(result.stdout).toContain('1 passed, 1 failed, 2 total');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="pipework" tests="2" failures="1" errors="0"');
    expect(xml).toMatch(
      /<testcase name="total-fails" classname="global\/app\/ordersbroken\/test" file="global\/app\/ordersbroken\/test\/total-fails" line="8" time="[\d.]+">\n {4}<failure message="ASSERTION_FAILED: The total of one line of 2 x 3 is 6, not 7">/u,
    );
    expect(xml).toMatch(/<testcase name="total-passes" [^>]*\/>/);
    const json = JSON.parse((await pi(['--json', 'test', 'ordersbroken'])).stdout);
    expect(json).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(json.tests[0]).toMatchObject({ name: 'total-fails', result: 'failed', line: 8, column: 5 });
  });

  it('sends object schemas before their instances, and counts a file the server refuses as failed', async () => {
    const folder = join(work, 'refusing');
    const object = join(folder, 'global/app/refusing/object/thing/v1');
    mkdirSync(join(object, 'instance'), { recursive: true });
    writeFileSync(
      join(object, 'schema.json'),
      '{"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}',
    );
    writeFileSync(join(object, 'instance/0b9f7a52-4f5e-4c59-9d7e-1c3f2a8b6d10.json'), '{"n": 1}');
    writeFileSync(
      join(object, 'instance/1c2e8b63-5a6f-4d6a-8e8f-2d4a3b9c7e21.json'),
      '{"n": "not a number"}',
    );
    const result = await pi(['publish', folder]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('2 created, 0 updated, 0 unchanged, 1 failed.');
    expect(result.stdout).toMatch(/^failed\s+global\/app\/refusing\/object\/thing\/v1\/instance\/1c2e8b63/m);
    expect(result.stderr).toContain('1c2e8b63-5a6f-4d6a-8e8f-2d4a3b9c7e21.json');
  });

  it('fails publish when the published tests fail', async () => {
    const folder = join(work, 'broken-copy');
    cpSync(join(EXAMPLES, 'orders-broken'), folder, { recursive: true });
    writeFileSync(
      join(folder, 'global/app/ordersbroken/pipeline/total.pi.yaml'),
      readFileSync(join(EXAMPLES, 'orders-broken/global/app/ordersbroken/pipeline/total.pi.yaml'), 'utf8') +
        '\n# changed\n',
    );
    const result = await pi(['publish', folder]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('0 created, 1 updated, 2 unchanged, 0 failed.');
    expect(result.stdout).toContain('1 passed, 1 failed, 2 total');
  });
});

describe.skipIf(!existsSync(CORPUS))('pi publish of the real apps (../shared/corpus/app-examples)', () => {
  it('makes every file a property with the right key and type; then sends nothing; then only what changed', async () => {
    const apps = join(work, 'apps');
    cpSync(CORPUS, apps, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', apps]);
    const local = readFolder(apps);

    const dry = await pi(['publish', '--dry-run', 'apps']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`Would publish: ${local.length} created, 0 updated, 0 unchanged, 0 failed.`);
    const corpusApps = [...new Set(local.map((p) => p.key.split('/').slice(0, 3).join('/')))];
    for (const app of corpusApps) expect((await pi(['--json', 'list', `${app}/**`])).stdout).toBe('[]\n');

    const first = await pi(['publish', 'apps']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${local.length} created, 0 updated, 0 unchanged, 0 failed.`);
    const listed: { key: string; type: string }[] = [];
    for (const app of corpusApps)
      listed.push(...JSON.parse((await pi(['--json', 'list', `${app}/**`])).stdout));
    const extra = listed.filter((p) => !local.some((l) => l.key === p.key)).map((p) => p.key);
    expect(extra).toEqual([]);
    expect(listed.map((p) => [p.key, p.type]).sort()).toEqual(local.map((p) => [p.key, p.type]).sort());
    for (const p of local.filter((p) => p.key.endsWith('/pipeline/submit')))
      expect(p.type).toBe('application/yaml;type=pipeline');
    const values = await http(server.url, '/api/v3/command/property.list?pattern=global/app/**', {
      auth: server.adminAuth,
    });
    const valueOf = new Map(
      (values.json as { key: string; value: string }[]).map((p) => [p.key.replace(/^\//, ''), p.value]),
    );
    for (const p of local) expect(valueOf.get(p.key), p.key).toBe(p.value);
    const sample = local.find((p) => p.type === 'application/json')!;
    expect((await pi(['get', sample.key])).stdout).toBe(sample.value);

    const versions = async () => {
      const all: { key: string; version: number }[] = [];
      for (const app of corpusApps)
        all.push(...JSON.parse((await pi(['--json', 'list', `${app}/**`])).stdout));
      return all.map((p) => `${p.key}@${p.version}`).sort();
    };
    const before = await versions();
    const again = await pi(['--json', 'publish', 'apps']);
    expect(JSON.parse(again.stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: local.length,
      failed: 0,
      properties: [],
    });

    expect(await versions()).toEqual(before);

    writeFileSync(join(apps, 'global/app/demo/config/app.json'), '{"title": "Changed"}');
    const changed = await pi(['publish', 'apps']);
    expect(changed.stdout).toMatch(/^updated\s+global\/app\/demo\/config\/app\s+application\/json$/m);
    expect(changed.stdout).toContain(`0 created, 1 updated, ${local.length - 1} unchanged, 0 failed.`);
    const bumped = (await versions()).filter((v) => !before.includes(v));
    expect(bumped).toEqual(['global/app/demo/config/app@2']);

    const setup = await pi(['pipeline', 'global/app/demo/setup/00-createIAMEntities']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(await server.services.iam.roles.byName('CAN_APP_DEMO')).toBeDefined();
  }, 300_000);
});

if (!existsSync(CORPUS))
  console.warn(
    `pi publish of the real apps skipped: ${CORPUS} is absent (it lives beside the project, in ../shared).`,
  );

/** Runs pi on a pseudo-terminal through script(1); `input` is typed into it. */
function piOnTerminal(
  args: string[],
  env: Record<string, string | undefined> = {},
  input = '',
): Promise<Run> {
  const quoted = [process.execPath, PI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const child = execFile(
      'script',
      ['-qec', quoted, '/dev/null'],
      { env: environment(env), cwd: work },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
    child.stdin!.end(input);
  });
}

const SCRIPT = '/usr/bin/script';
describe.skipIf(!existsSync(SCRIPT))('pi on a terminal (through script(1))', () => {
  it('shows what delete would remove and asks; n keeps, y deletes', async () => {
    await pi(['put', 'global/tty/a', '-'], {}, 'a');
    await pi(['put', 'global/tty/b', '-'], {}, 'b');
    const no = await piOnTerminal(['delete', 'global/tty/**'], {}, 'n\n');
    expect(no.code).toBe(1);
    expect(no.stdout).toContain('  global/tty/a');
    expect(no.stdout).toContain('Delete these 2 properties? [y/N]');
    expect(no.stdout).toContain('Nothing deleted.');
    expect((await pi(['get', 'global/tty/a'])).code).toBe(0);
    const yes = await piOnTerminal(['delete', 'global/tty/**'], {}, 'y\n');
    expect(yes.code, yes.stdout).toBe(0);
    expect(yes.stdout).toContain('Deleted 2 properties.');
    expect((await pi(['get', 'global/tty/a'])).code).toBe(4);
  });

  it('colours on a terminal unless NO_COLOR is set, and draws the publish progress bar', async () => {
    const coloured = await piOnTerminal(['test', 'orders']);
    expect(coloured.code, coloured.stdout).toBe(0);
    expect(coloured.stdout).toContain('\x1b[32mpassed\x1b[0m');
    const plain = await piOnTerminal(['test', 'orders'], { NO_COLOR: '1' });
    expect(plain.stdout).toContain('passed');
    expect(plain.stdout).not.toContain('\x1b[');
    const folder = join(work, 'tty-app');
    mkdirSync(join(folder, 'global/app/ttyapp/config'), { recursive: true });
    writeFileSync(join(folder, 'global/app/ttyapp/config/app.json'), '{}');
    const published = await piOnTerminal(['publish', folder]);
    expect(published.code, published.stdout).toBe(0);
    expect(published.stdout).toMatch(/publishing \[#+\] 1\/1/);
    expect(published.stdout).toContain('1 created, 0 updated, 0 unchanged, 0 failed.');
  });
});

if (!existsSync(SCRIPT)) console.warn(`pi terminal tests skipped: ${SCRIPT} (util-linux) is absent.`);
