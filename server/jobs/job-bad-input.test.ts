// Bad input to jobs over HTTP on a real server, each a clear error in the contract's shape: an invalid cron
// or time zone, `job` twice or not first (when the pipeline runs, and when it is stored: job.status says why).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const run = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { type: 'application/yaml', body: yaml, auth: server.adminAuth });

describe('jobs: bad input', () => {
  it.each([
    ['an invalid cron', 'pipeline:\n  - job: "61 * * * *"\n', /not a valid cron expression/],
    ['a cron firing every second', 'pipeline:\n  - job: "* * * * * *"\n', /seconds field/],
    ['an unknown schedule word', 'pipeline:\n  - job: SOMETIMES\n', /schedule|cron/i],
    [
      'an unknown time zone',
      'pipeline:\n  - job:\n      schedule: HOURLY\n      timeZone: Mars/Olympus\n',
      /time zone/i,
    ],
    ['two job commands', 'pipeline:\n  - job: HOURLY\n  - log: x\n  - job: DAILY\n', /first command/],
  ])('refuses %s when the pipeline runs (400 PARAM_INVALID, with the step)', async (_what, yaml, message) => {
    const answer = await run(yaml);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.value.code).toBe('PARAM_INVALID');
    expect(answer.json.value.message).toMatch(message);
  });

  it('does not register a stored pipeline with a bad cron or two job commands; job.status says why', async () => {
    const store = (name: string, yaml: string) =>
      http(server.url, `/api/v3/pipeline:global/app/badjobs/pipeline/${name}`, {
        method: 'PUT',
        body: yaml,
        type: 'application/yaml',
        auth: server.adminAuth,
      });
    expect((await store('cron', 'pipeline:\n  - job: "61 * * * *"\n  - log: x\n')).status).toBeLessThan(300);
    expect((await store('twice', 'pipeline:\n  - job: HOURLY\n  - job: DAILY\n')).status).toBeLessThan(300);
    const status = (name: string) =>
      http(server.url, `/api/v3/command/job.status?pipelineKey=global/app/badjobs/pipeline/${name}`, {
        auth: server.adminAuth,
      });
    const cron = await eventually(async () => {
      const answer = await status('cron');
      return answer.status === 400 ? answer : undefined;
    });
    expect(cron.json.value.message).toMatch(/not a valid cron expression/);
    const twice = await eventually(async () => {
      const answer = await status('twice');
      return answer.status === 400 ? answer : undefined;
    });
    expect(twice.json.value.message).toMatch(/one job command only/);
    const list = await http(server.url, '/api/v3/command/job.list', { auth: server.adminAuth });
    expect(JSON.stringify(list.json)).not.toContain('badjobs');
  });
});
