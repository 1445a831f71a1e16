/**
 * Every failure of the real `pi` (bin/pi.js through node) is one line on stderr: `pi: CODE ...: message → what
 * to do`, never a stack trace; against a real server, an address that is not one, and no server at all.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const PI = fileURLToPath(new URL('../../bin/pi.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pi-failures-'));

let server: TestServer;
let notPipework: Server;
let notPipeworkUrl: string;
beforeAll(async () => {
  // a real socket: the pi CLI, a child process, is the client
  server = await startTestServer({ socket: true });
  notPipework = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>a web page</html>');
  });
  await new Promise<void>((resolve) => notPipework.listen(0, '127.0.0.1', resolve));
  const address = notPipework.address();
  notPipeworkUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => notPipework.close(resolve));
});

interface Run {
  code: number;
  stderr: string;
}

function pi(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [PI, ...args],
      {
        cwd: work,
        env: {
          ...base,
          XDG_CONFIG_HOME: join(work, 'config'),
          PIPEWORK_URL: server.url,
          PIPEWORK_USER: 'admin',
          PIPEWORK_PASSWORD: TEST_ADMIN_PASSWORD,
          ...env,
        },
      },
      (error, _stdout, stderr) => {
        const code = error ? (error as { code?: number }).code : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stderr });
      },
    );
    child.stdin!.end('');
  });
}

/** One line: `pi: CODE`, a message, ` → ` and what to do; no stack frame anywhere. */
function expectOneLine(run: Run, code: string | RegExp): void {
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(lines[0]).toMatch(/^pi: [A-Z][A-Z_]+\b.* → \S.+$/);
  expect(lines[0]!.slice(4)).toMatch(typeof code === 'string' ? new RegExp(`^${code}\\b`) : code);
}

describe('pi: every failure is one line with its code and what to do', () => {
  it('usage: an unknown verb (with its suggestion), an unknown option, a missing argument', async () => {
    const verb = await pi(['lst']);
    expectOneLine(verb, 'USAGE');
    expect(verb.stderr).toContain("unknown command 'lst'");
    expect(verb.stderr).toContain('Did you mean list?');
    expect(verb.code).toBe(2);
    expectOneLine(await pi(['get', '--bogus']), 'USAGE');
    expectOneLine(await pi(['get']), 'USAGE');
  });

  it('no server at that address; an address that is not a Pipework server', async () => {
    const down = await pi(['get', 'global/x'], { PIPEWORK_URL: 'http://127.0.0.1:9' });
    expectOneLine(down, 'UNREACHABLE');
    expect(down.stderr).toContain('--url');
    expect(down.code).toBe(1);
    for (const args of [['status'], ['get', 'global/x']]) {
      const web = await pi(args, { PIPEWORK_URL: notPipeworkUrl });
      expectOneLine(web, /^(BAD_ANSWER|UNAUTHENTICATED)\b/);
      expect(web.stderr).not.toContain('SyntaxError');
    }
  });

  it('the server refuses: wrong password, missing property, unknown command, a pipeline error with its place', async () => {
    const wrong = await pi(['get', 'global/x'], { PIPEWORK_PASSWORD: 'wrong' });
    expectOneLine(wrong, /^[A-Z_]+/);
    expect(wrong.code).toBe(3);
    expectOneLine(await pi(['get', 'global/no/such/key']), 'PROPERTY_NOT_FOUND');
    expectOneLine(await pi(['command', 'no.such.command']), 'COMMAND_NOT_FOUND');
    writeFileSync(
      join(work, 'broken.pi.yaml'),
      'pipeline:\n  - log: hi\n  - log:\n      message: "#{1 +}"\n',
    );
    const broken = await pi(['run', 'broken.pi.yaml']);
    expectOneLine(broken, 'PEL_SYNTAX');
    expect(broken.stderr).toMatch(/broken\.pi\.yaml:4:\d+ in log \(step 2\)/);
  });

  it('a missing file', async () => {
    const missing = await pi(['run', 'nothing-here.pi.yaml']);
    expectOneLine(missing, 'FILE_NOT_FOUND');
    expect(missing.code).toBe(4);
  });
});
