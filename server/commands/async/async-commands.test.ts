// The async commands on a real server: a stored pipeline started with pipeline.start async=true, polled with
// async.poll to its result, listed, cancelled; another user's or an unknown correlation id is 404 (never the
// other user's run); log.list reads the log lines of the recorded runs the caller may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../testing/eventually';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
let ann: string;
let carl: string;
const SLOW = 'global/app/asyncs/pipeline/slow';
const QUICK = 'global/app/asyncs/pipeline/quick';

beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_RUNS_TRACE_SAMPLE: '1' } });
  const { iam } = server.services;
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  await iam.createUser({ username: 'carl', password: 'carl-pw', roles: ['ROLE_USER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  carl = server.basicAuth('carl', 'carl-pw');
  const store = (key: string, yaml: string) =>
    http(server.url, `/api/v3/pipeline:${key}`, {
      method: 'PUT',
      body: yaml,
      type: 'application/yaml',
      auth: server.adminAuth,
    });
  expect(
    (
      await store(
        QUICK,
        'pipeline:\n  - log: "quick for #{vars.who}"\n  - set.body:\n      value: "done #{vars.who}"\n',
      )
    ).status,
  ).toBeLessThan(300);
  expect((await store(SLOW, 'pipeline:\n  - wait:\n      ms: 60000\n')).status).toBeLessThan(300);
});
afterAll(() => server.close());

const command = (name: string, params: Record<string, unknown>, auth: string): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', {
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ [name]: params }] }),
    auth,
  });
const poll = (id: string, auth: string) =>
  http(server.url, `/api/v3/command/async.poll?correlationId=${encodeURIComponent(id)}`, { auth });

describe('async commands', () => {
  it('starts a stored pipeline async and polls it to its result; foreign and unknown ids are 404', async () => {
    const started = await command('pipeline.start', { key: QUICK, async: true, vars: { who: 'ann' } }, ann);
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ status: 'queued', statusCode: 202 });
    const id = started.json.correlationId as string;
    const done = await eventually(
      async () => {
        const answer = (await poll(id, ann)).json;
        return answer.status === 'running' ? undefined : answer;
      },
      { within: 30_000 },
    );
    expect(done).toMatchObject({ correlationId: id, status: 'finished', statusCode: 200, value: 'done ann' });
    expect(done.created).toEqual(expect.any(Number));

    const foreign = await poll(id, carl);
    const unknown = await poll('00000000-0000-4000-8000-000000000000', carl);
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(JSON.stringify(foreign.json)).not.toContain('done ann');
    expect(foreign.json.value.message.replace(id, 'X')).toBe(
      unknown.json.value.message.replace('00000000-0000-4000-8000-000000000000', 'X'),
    );
    expect((await poll(id, server.adminAuth)).json.value).toBe('done ann'); // an admin sees every run

    // The run is an ordinary run record: in the history, with its trigger and parent.
    const run = (await http(server.url, `/api/v3/runs/${id}`, { auth: ann })).json;
    expect(run).toMatchObject({ pipelineKey: QUICK, async: true, trigger: { kind: 'async', source: QUICK } });
  });

  it('does not answer a run that was not started async, and refuses a missing id', async () => {
    await command('log', { message: 'sync run' }, ann);
    const { runs } = (await http(server.url, '/api/v3/runs?limit=1', { auth: ann })).json;
    expect(runs[0].async).toBe(false);
    expect((await poll(runs[0].id, ann)).status).toBe(404);
    const missing = await http(server.url, '/api/v3/command/async.poll', { auth: ann });
    expect([missing.status, missing.json.value.code]).toEqual([400, 'PARAM_INVALID']);
  });

  it('lists async runs by state and cancels a running one (twice is no error)', async () => {
    const admin = server.adminAuth;
    const slow = (await command('pipeline.start', { key: SLOW, async: true }, admin)).json.correlationId;
    await eventually(
      async () => ((await poll(slow, admin)).json.runStatus === 'running' ? true : undefined),
      {
        within: 30_000,
      },
    );
    const running = await command('async.list', { state: 'running' }, admin);
    expect(running.json.map((t: { correlationId: string }) => t.correlationId)).toContain(slow);
    expect(running.json.every((t: { status: string }) => t.status === 'running')).toBe(true);
    expect((await command('async.list', {}, carl)).json).toEqual([]);
    expect((await command('async.cancel', { correlationId: slow }, carl)).status).toBe(404);

    const cancelled = await command('async.cancel', { correlationId: slow }, admin);
    expect(cancelled.status, cancelled.text).toBe(200);
    const ended = await eventually(
      async () => {
        const answer = (await poll(slow, admin)).json;
        return answer.status === 'running' ? undefined : answer;
      },
      { within: 30_000 },
    );
    expect(ended.status).toBe('cancelled');
    expect((await command('async.cancel', { correlationId: slow }, admin)).json.status).toBe('cancelled');
    const finished = await command('async.list', { status: 'finished' }, ann);
    expect(finished.json.length).toBeGreaterThan(0);
    expect(finished.json.every((t: { status: string }) => t.status === 'finished')).toBe(true);
    expect((await command('async.ping', { correlationId: slow }, admin)).json.status).toBe('cancelled');
  });
});

describe('log.list', () => {
  it('with service runs (or a runId) reads the lines of the runs the caller may see, from the run records', async () => {
    await command('log', { message: 'ann was here' }, ann);
    await command('log', { message: 'carl was here', level: 'WARN' }, carl);
    const mine = await http(server.url, '/api/v3/command/log.list?service=runs&format=json&lines=500', {
      auth: carl,
    });
    expect(mine.status, mine.text).toBe(200);
    const messages = mine.json.map((l: { message: string }) => l.message);
    expect(messages).toContain('carl was here');
    expect(messages).not.toContain('ann was here');
    const line = mine.json.find((l: { message: string }) => l.message === 'carl was here');
    expect(line).toMatchObject({ level: 'WARN', command: 'log', stepIndex: 0, runId: expect.any(String) });

    const admin = await http(
      server.url,
      '/api/v3/command/log.list?service=runs&lines=500&contains=was%20here',
      {
        auth: server.adminAuth,
      },
    );
    expect(admin.text).toContain('ann was here');
    expect(admin.text).toContain('carl was here');
    const warnings = await http(
      server.url,
      '/api/v3/command/log.list?service=runs&format=json&level=warn&lines=500',
      {
        auth: server.adminAuth,
      },
    );
    expect(warnings.json.every((l: { level: string }) => ['WARN', 'ERROR'].includes(l.level))).toBe(true);
    const oneRun = await http(server.url, `/api/v3/command/log.list?format=json&runId=${line.runId}`, {
      auth: server.adminAuth,
    });
    expect(oneRun.json.map((l: { message: string }) => l.message)).toEqual(['carl was here']);
    const foreignRun = await http(server.url, `/api/v3/command/log.list?runId=${line.runId}`, { auth: ann });
    expect(foreignRun.status).toBe(404);
    const hub = await http(server.url, '/api/v3/command/log.list', { auth: carl });
    expect([hub.status, hub.json.value.code]).toEqual([403, 'FORBIDDEN']);
    expect(hub.json.value.message).toContain('service: runs');
  });
});

describe('async chains', () => {
  it('refuses a pipeline that starts itself async more than 10 deep', async () => {
    const key = 'global/app/asyncs/pipeline/again';
    const stored = await http(server.url, `/api/v3/pipeline:${key}`, {
      method: 'PUT',
      body: `pipeline:\n  - pipeline.start:\n      key: ${key}\n      async: true\n`,
      type: 'application/yaml',
      auth: server.adminAuth,
    });
    expect(stored.status).toBeLessThan(300);
    const first = await command('pipeline.start', { key, async: true }, server.adminAuth);
    expect(first.status, first.text).toBe(200);
    const runsOf = async () =>
      (await http(server.url, `/api/v3/runs?pipeline=${key}&limit=100`, { auth: server.adminAuth })).json;
    const failed = await eventually(
      async () => {
        const { runs } = await runsOf();
        return runs.find((r: { status: string }) => r.status === 'failed');
      },
      { within: 60_000, what: 'the chain to be refused' },
    );
    expect(failed.error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(failed.error.message).toMatch(/start itself/);
    // The chain ended there: nine runs succeeded (each started the next), the tenth could not start another.
    const all = await eventually(async () => {
      const { runs } = await runsOf();
      return runs.every((r: { status: string }) => r.status === 'succeeded' || r.status === 'failed')
        ? runs
        : undefined;
    });
    expect(all).toHaveLength(10);
    expect(all.filter((r: { status: string }) => r.status === 'failed')).toHaveLength(1);
  });
});
