import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineCommand } from '../../shared/commands';
import { createLogger } from '../logging/logger';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const logLines: Record<string, unknown>[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n'))
      if (line) logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

// A command with a bug: it throws something that is not a PipeworkError.
const buggy = defineCommand(
  {
    name: 'test.buggy',
    summary: 'Throws a TypeError.',
    parameters: {},
    input: 'any',
    output: 'any',
    effect: 'read',
  },
  () => {
    const missing = undefined as unknown as { field: string };
    return missing.field;
  },
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    logger: createLogger('info', capture),
    services: { extraCommands: [buggy] },
  });
});
afterAll(() => server.close());

it('answers a bug with INTERNAL, no stack trace, and logs it under the trace id', async () => {
  const response = await http(server.url, '/api/v3/command/test.buggy', { auth: server.adminAuth });
  expect(response.status).toBe(500);
  expect(response.json).toMatchObject({
    status: 'error',
    statusCode: 500,
    value: { code: 'INTERNAL', commandName: 'test.buggy' },
  });
  expect(response.text).not.toMatch(/TypeError|at .*\.ts|field/);
  const traceId = response.json.value.traceId as string;
  const logged = logLines.find((l) => l.traceId === traceId && l.msg === 'internal error');
  expect(logged).toBeDefined();
  expect(JSON.stringify(logged)).toContain('TypeError');
  expect((await http(server.url, '/healthz')).status).toBe(200);
});
