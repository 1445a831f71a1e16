import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFolder } from '../../cli/publish';
import { callCommand, codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

const EXAMPLES = fileURLToPath(new URL('../../../examples', import.meta.url));

let server: TestServer;

async function put(key: string, value: string, type = 'application/yaml;type=pipeline') {
  const response = await callCommand(
    'GET',
    server.url,
    'property.schema.put',
    { key, value, type, evalValue: 'false' },
    server.adminAuth,
  );
  expect(response.status, response.text).toBe(200);
}

async function runTests(pattern: string, writes?: string) {
  const params = writes === undefined ? { pattern } : { pattern, writes };
  const response = await callCommand('GET', server.url, 'test.run', params, server.adminAuth);
  expect(response.status, response.text).toBe(200);
  return response.json as {
    total: number;
    passed: number;
    failed: number;
    durationMs: number;
    tests: { name: string; key: string; result: string; message?: string; line?: number; column?: number }[];
  };
}

beforeAll(async () => {
  server = await startTestServer();
  for (const app of ['orders', 'orders-broken'])
    for (const p of readFolder(`${EXAMPLES}/${app}`)) await put(p.key, p.value, p.type);
});
afterAll(() => server.close());

describe('test.run', () => {
  it("runs the example app's tests, which mock mail.send, and they pass", async () => {
    const report = await runTests('global/app/orders/test/**');
    expect(report.tests.map((t) => [t.name, t.result, t.message])).toEqual([
      ['confirm-mails-customer', 'passed', undefined],
      ['mail-failure-is-reported', 'passed', undefined],
    ]);
    expect(report).toMatchObject({ total: 2, passed: 2, failed: 0 });
    expect(report.tests[0]!.key).toBe('global/app/orders/test/confirm-mails-customer');
  });

  it('names the line of a failing test, and counts it', async () => {
    const report = await runTests('global/app/ordersbroken/test/**');
    expect(report).toMatchObject({ total: 2, passed: 1, failed: 1 });
    const failing = report.tests.find((t) => t.name === 'total-fails')!;
    expect(failing).toMatchObject({ result: 'failed', line: 8 });
    expect(failing.message).toBe('ASSERTION_FAILED: The total of one line of 2 x 3 is 6, not 7');
  });

  it('defaults to every app: global/app/*/test/**', async () => {
    const response = await callCommand('GET', server.url, 'test.run', {}, server.adminAuth);
    expect(response.json).toMatchObject({ total: 4, passed: 3, failed: 1 });
  });

  it('reports an error (not a failure) with its line, e.g. an unknown command nobody mocked', async () => {
    await put('global/app/errs/test/unknown', 'pipeline:\n  - log: a\n  - mail.sendd:\n      to: x\n');
    const report = await runTests('global/app/errs/test/**');
    expect(report.tests[0]).toMatchObject({ result: 'error', line: 3, column: 5 });
    expect(report.tests[0]!.message).toMatch(/^COMMAND_NOT_FOUND: /);
  });

  it('keeps mocks to one test run: the next test and normal pipelines see the real command', async () => {
    await put(
      'global/app/iso/test/a-mocks',
      'pipeline:\n  - mock.command:\n      command: datetime\n      thenSetBody: mocked\n  - datetime\n  - assert:\n      equals: mocked\n',
    );
    await put(
      'global/app/iso/test/b-real',
      'pipeline:\n  - datetime: yyyy\n  - assert:\n      true: "#{body != \'mocked\'}"\n',
    );
    const report = await runTests('global/app/iso/test/**');
    expect(report.tests.map((t) => t.result)).toEqual(['passed', 'passed']);
    const outside = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: 'pipeline:\n  - mock.command:\n      command: datetime\n      thenSetBody: mocked\n',
    });
    expect(outside.status).toBe(400);
    expect(codeOf(outside)).toBe('BAD_REQUEST');
  });

  it('chooses the mock whose condition on the parameters holds, else runs the real command', async () => {
    await put(
      'global/app/when/test/conditions',
      [
        'pipeline:',
        '  - mock.command:',
        '      command: datetime',
        '      when: "#{request.params.format == \'X\'}"',
        '      thenSetBody: "mocked #{request.params.format}"',
        '  - datetime: X',
        '  - assert:',
        '      equals: mocked X',
        '  - datetime: yyyy',
        '  - assert:',
        `      equals: "${new Date().getUTCFullYear()}"`,
      ].join('\n'),
    );
    expect((await runTests('global/app/when/test/**')).tests[0]).toMatchObject({ result: 'passed' });
  });

  it('lets a test change data only in its own app folder and what the runner grants; testWrites only narrows', async () => {
    const write = (key: string, header = '') =>
      `${header}pipeline:\n  - property.schema.put:\n      key: ${key}\n      value: x\n`;
    await put('global/app/guard/test/own', write('global/app/guard/data/a'));
    await put('global/app/guard/test/other-app', write('global/app/other/data/a'));
    await put('global/app/guard/test/granted', write('global/shared/a'));
    await put(
      'global/app/guard/test/self-granted',
      write('global/elsewhere/a', 'headers:\n  testWrites: "global/elsewhere/**"\n'),
    );
    await put(
      'global/app/guard/test/narrowed',
      write('global/app/guard/data/b', 'headers:\n  testWrites: "global/app/guard/tmp/**"\n'),
    );
    const report = await runTests('global/app/guard/test/**', 'global/shared/**');
    const byName = Object.fromEntries(report.tests.map((t) => [t.name, t]));
    expect(byName.own!.result).toBe('passed');
    expect(byName.granted!.result).toBe('passed');
    expect(byName['other-app']).toMatchObject({ result: 'error', line: 2 });
    expect(byName['other-app']!.message).toMatch(/^FORBIDDEN: A test may change properties only inside/);
    expect(byName['self-granted']!.message).toMatch(/^FORBIDDEN: A test may change properties only inside/);
    expect(byName.narrowed!.message).toMatch(/^FORBIDDEN: This test limits its own writes/);
    const there = await callCommand(
      'GET',
      server.url,
      'property.exists',
      { key: 'global/app/other/data/a' },
      server.adminAuth,
    );
    expect(there.json).toBe(false);
  });

  it('refuses test.run inside a test, so tests never run themselves', async () => {
    await put('global/app/nest/test/again', 'pipeline:\n  - test.run: global/app/nest/test/**\n');
    const report = await runTests('global/app/nest/test/**');
    expect(report.tests[0]).toMatchObject({ result: 'error', line: 2 });
    expect(report.tests[0]!.message).toMatch(/^BAD_REQUEST: test.run cannot run inside a test/);
  });

  it('needs its permission like every command', async () => {
    await callCommand(
      'GET',
      server.url,
      'iam.user.create',
      { name: 'tester', password: 'tester-password-1' },
      server.adminAuth,
    );
    const response = await callCommand(
      'GET',
      server.url,
      'test.run',
      {},
      server.basicAuth('tester', 'tester-password-1'),
    );
    expect(response.status).toBe(403);
    expect(codeOf(response)).toBe('FORBIDDEN');
  });

  it('turns a thenError into the step error with its code', async () => {
    await put(
      'global/app/err/test/mail-down',
      'pipeline:\n  - mock.command:\n      command: mail.send\n      thenError: SMTP down\n  - mail.send:\n      to: a@example.com\n',
    );
    const report = await runTests('global/app/err/test/**');
    expect(report.tests[0]).toMatchObject({
      result: 'error',
      message: 'UPSTREAM_FAILED: SMTP down',
      line: 5,
    });
  });
});
