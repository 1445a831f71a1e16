/**
 * `pi login` answered at its prompts on a real pseudo-terminal (util-linux `script` gives the child a pty),
 * as a person types: the username is echoed, the password is not, and the login works.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const PI = fileURLToPath(new URL('../../bin/pi.js', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  // a real socket: the pi CLI, a child process, is the client
  server = await startTestServer({ socket: true });
});
afterAll(() => server.close());

/** Runs `command` on a pseudo-terminal; `answer(screen)` says what to type next, given all that was shown. */
function onTerminal(command: string, env: NodeJS.ProcessEnv, answers: [prompt: string, typed: string][]) {
  return new Promise<{ code: number | null; screen: string }>((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env });
    let screen = '';
    const pending = [...answers];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer in time; the terminal showed:\n${screen}`));
    }, 15_000);
    const feed = (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      const next = pending[0];
      if (next && screen.includes(next[0])) {
        pending.shift();
        child.stdin.write(next[1]);
      }
    };
    child.stdout.on('data', feed);
    child.stderr.on('data', feed);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describe('pi login on a terminal', () => {
  it('asks for the username and a hidden password, then signs in', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pi-tty-'));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
    const env = { ...base, XDG_CONFIG_HOME: home, NO_COLOR: '1' };
    const login = await onTerminal(`${process.execPath} ${PI} login ${server.url}`, env, [
      ['Username: ', 'admin\r'],
      ['Password: ', `${TEST_ADMIN_PASSWORD}\r`],
    ]);
    expect(login.screen).not.toContain('TypeError');
    expect(login.screen).toContain('admin');
    expect(login.screen).not.toContain(TEST_ADMIN_PASSWORD);
    expect(login.screen).toContain(`Logged in to ${server.url} as admin.`);
    expect(login.code).toBe(0);

    // The stored login is what the next call uses.
    const status = await onTerminal(`${process.execPath} ${PI} status --json`, env, []);
    expect(status.code).toBe(0);
    expect(status.screen).toMatch(/"user(name)?": "admin"/);
  });

  it('a wrong password is one line with what to do, no stack trace', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pi-tty-'));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
    const run = await onTerminal(
      `${process.execPath} ${PI} login ${server.url} --username admin`,
      { ...base, XDG_CONFIG_HOME: home, NO_COLOR: '1' },
      [['Password: ', 'not-the-password\r']],
    );
    expect(run.code).not.toBe(0);
    expect(run.screen).not.toMatch(/\n\s+at /);
    expect(run.screen).not.toContain('not-the-password');
  });
  it('Ctrl+C at the password prompt stops with one line and exit code 130', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pi-tty-'));
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
    const run = await onTerminal(
      `${process.execPath} ${PI} login ${server.url} --username admin`,
      { ...base, XDG_CONFIG_HOME: home, NO_COLOR: '1' },
      [['Password: ', 'half-typed\x03']],
    );
    expect(run.code).toBe(130);
    expect(run.screen).toContain('pi: CANCELLED');
    expect(run.screen).not.toContain('INTERNAL');
    expect(run.screen).not.toContain('half-typed');
    expect(run.screen).not.toMatch(/\n\s+at /);
  });
});
