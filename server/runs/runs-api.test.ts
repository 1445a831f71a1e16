import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

/** The run history over HTTP: async runs, the list, one run, re-run (from the failed step), cancel, access. */
let server: TestServer;
let ann: string;
let carl: string;

beforeAll(async () => {
  server = await startTestServer({
    env: { PIPEWORK_RUNS_TRACE_SAMPLE: '0', PIPEWORK_ASYNC_PER_USER: '1', PIPEWORK_ASYNC_QUEUE: '1' },
  });
  const { iam } = server.services;
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  await iam.createUser({ username: 'carl', password: 'carl-pw', roles: ['ROLE_USER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  carl = server.basicAuth('carl', 'carl-pw');
});
afterAll(() => server.close());

const pipe = (yaml: string, auth: string, query = ''): Promise<HttpResponse> =>
  http(server.url, `/api/v3/pipeline${query}`, { auth, type: 'application/yaml', body: yaml });
const getRun = (id: string, auth: string): Promise<HttpResponse> =>
  http(server.url, `/api/v3/runs/${id}`, { auth });
const finished = (id: string, auth: string) =>
  eventually(async () => {
    const run = (await getRun(id, auth)).json;
    return ['succeeded', 'failed', 'cancelled'].includes(run.status) ? run : undefined;
  });

describe('async runs', () => {
  it('answers 202 with the run id and a status URL, and the run can be polled to its result', async () => {
    const started = await pipe('pipeline:\n  - set.body:\n      value: hello\n', ann, '?async=true');
    expect(started.status).toBe(202);
    expect(started.json.statusUrl).toBe(`/api/v3/runs/${started.json.runId}`);
    expect(started.headers.get('location')).toBe(started.json.statusUrl);
    const run = await finished(started.json.runId, ann);
    expect(run).toMatchObject({
      status: 'succeeded',
      output: 'hello',
      trigger: { kind: 'async' },
      username: 'ann',
    });
  });

  it('refuses a run past the per-user limit and the queue with 429', async () => {
    const slow = 'pipeline:\n  - wait:\n      ms: 1500\n';
    const first = await pipe(slow, server.adminAuth, '?async=true');
    const second = await pipe(slow, server.adminAuth, '?async=true');
    const third = await pipe(slow, server.adminAuth, '?async=true');
    const statuses = [first.status, second.status, third.status];
    expect(statuses).toEqual([202, 202, 429]);
    expect(third.json.value.code).toBe('TOO_MANY_REQUESTS');
    // The queued one is cancelled before it starts; the running one is cancelled while it runs.
    const cancelledQueued = await http(server.url, `/api/v3/runs/${second.json.runId}/cancel`, {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect(cancelledQueued.json.status, cancelledQueued.text).toBe('cancelled');
    await http(server.url, `/api/v3/runs/${first.json.runId}/cancel`, {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect((await finished(first.json.runId, server.adminAuth)).status).toBe('cancelled');
  });
});

describe('access', () => {
  it("answers 404 for an unknown id and for another user's run, the same way", async () => {
    const started = await pipe('pipeline:\n  - log:\n      message: mine\n', ann, '?async=true');
    await finished(started.json.runId, ann);
    const foreign = await getRun(started.json.runId, carl);
    const unknown = await getRun('no-such-run', carl);
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.json.value.message.replace(started.json.runId, 'X')).toBe(
      unknown.json.value.message.replace('no-such-run', 'X'),
    );
    const list = await http(server.url, '/api/v3/runs', { auth: carl });
    expect(list.json.runs.every((r: { username: string }) => r.username === 'carl')).toBe(true);
    const admin = await http(server.url, '/api/v3/runs?user=ann', { auth: server.adminAuth });
    expect(admin.json.total).toBeGreaterThan(0);
  });

  it('refuses a filter it does not know rather than answering every run', async () => {
    const misspelt = await http(server.url, '/api/v3/runs?text=mine', { auth: ann });
    expect(misspelt.status).toBe(400);
    expect(misspelt.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'text' });
    const found = await http(server.url, '/api/v3/runs?q=mine', { auth: ann });
    expect(found.status).toBe(200);
  });

  it("refuses a re-run by a user who may not run the pipeline's commands", async () => {
    const failed = await pipe('pipeline:\n  - call:\n      uri: "$uri:pipeline:global/x"\n', carl);
    expect(failed.status).toBe(403);
    const { runs } = (await http(server.url, '/api/v3/runs?status=failed', { auth: carl })).json;
    const rerun = await http(server.url, `/api/v3/runs/${runs[0].id}/rerun`, { auth: carl, method: 'POST' });
    expect(rerun.status).toBe(403);
    expect(rerun.json.value.code).toBe('FORBIDDEN');
  });
});

describe('history', () => {
  it('records a failed run with its error position and redacts secrets', async () => {
    const yaml =
      'vars:\n  password: hunter2\npipeline:\n  - set.body:\n      value: {apiKey: k-123, note: n}\n  - error:\n      message: broken findme here\n';
    const answer = await pipe(yaml, ann);
    expect(answer.status).toBe(400);
    const list = await http(server.url, '/api/v3/runs?q=findme&status=failed', { auth: ann });
    expect(list.json.total).toBe(1);
    const run = (await getRun(list.json.runs[0].id, ann)).json;
    expect(run.error).toMatchObject({ commandName: 'error', commandIndex: 1, line: 6 });
    expect(run.resume.stepIndex).toBe(1);
    expect(run.resume.message.vars.password).toBe('***');
    expect(JSON.stringify(run)).not.toContain('hunter2');
    expect(JSON.stringify(run)).not.toContain('k-123');
    const bad = await http(server.url, '/api/v3/runs?status=nope', { auth: ann });
    expect(bad.status).toBe(400);
  });

  it("re-runs a failed stored pipeline from its failed step after the fix, with the earlier step's message", async () => {
    const key = 'global/app/runs-demo/pipeline/fix-me';
    const put = (yaml: string) =>
      http(server.url, `/api/v3/pipeline:${key}`, {
        auth: server.adminAuth,
        method: 'PUT',
        type: 'application/yaml',
        body: yaml,
      });
    expect(
      (await put('pipeline:\n  - set.body:\n      value: {n: 41}\n  - error:\n      message: not yet\n'))
        .status,
    ).toBeLessThan(300);
    const failed = await http(server.url, `/api/v3/pipeline:${key}`, {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect(failed.status).toBe(400);
    const { runs } = (
      await http(server.url, `/api/v3/runs?pipeline=${encodeURIComponent(key)}`, { auth: server.adminAuth })
    ).json;
    expect(runs[0]).toMatchObject({ status: 'failed', trigger: { kind: 'stored', source: key } });
    // The fix: step 2 now uses what step 1 left in the body.
    await put('pipeline:\n  - set.body:\n      value: {n: 0}\n  - set.body:\n      value: "#{body.n + 1}"\n');
    const rerun = await http(server.url, `/api/v3/runs/${runs[0].id}/rerun`, {
      auth: server.adminAuth,
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({ fromFailedStep: true }),
    });
    expect(rerun.status).toBe(202);
    const run = await finished(rerun.json.runId, server.adminAuth);
    expect(run).toMatchObject({ status: 'succeeded', output: 42, stepsExecuted: 1, parentId: runs[0].id });
  });
});

describe('command calls', () => {
  it('are recorded with a JSON pipeline that repeats them, one text for each call without parameters', async () => {
    const calls = [
      '/api/v3/command/datetime',
      '/api/v3/command/datetime',
      '/api/v3/command/datetime?format=yyyy',
    ];
    for (const call of calls) expect((await http(server.url, call, { auth: carl })).status).toBe(200);
    const runs = await eventually(async () => {
      const list = (await http(server.url, '/api/v3/runs?trigger=http', { auth: carl })).json.runs as {
        id: string;
      }[];
      return list.length >= 3 ? list.slice(0, 3) : undefined;
    });
    const details = await Promise.all(runs.map(async (run) => (await getRun(run.id, carl)).json));
    const bare = '{"headers":{},"vars":{},"pipeline":[{"datetime":{}}]}';
    const formatted = '{"headers":{},"vars":{},"pipeline":[{"datetime":{"format":"yyyy"}}]}';
    expect(details.every((run) => run.source.form === 'json')).toBe(true);
    expect(details.map((run) => run.source.text).sort()).toEqual([bare, bare, formatted].sort());
    const hashes = (text: string) =>
      new Set(details.filter((run) => run.source.text === text).map((run) => run.pipelineHash));
    expect(hashes(bare).size).toBe(1);
    expect(hashes(formatted)).not.toEqual(hashes(bare));
  });
});

describe('metrics', () => {
  it('serves runs, durations, queue depth and requests in Prometheus format to an admin only', async () => {
    const metrics = await http(server.url, '/metrics', { auth: server.adminAuth });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(
      /pipework_runs_total\{pipeline="inline",trigger="async",status="succeeded"\} \d+/,
    );
    expect(metrics.text).toMatch(
      /pipework_runs_total\{pipeline="global\/app\/runs-demo\/pipeline\/fix-me",trigger="stored",status="failed"\} 1/,
    );
    expect(metrics.text).toContain('pipework_run_duration_seconds_bucket');
    expect(metrics.text).toContain('pipework_async_queue_depth 0');
    expect(metrics.text).toMatch(
      /pipework_http_requests_total\{method="POST",route="\/api\/v3\/pipeline",status="202"\} \d+/,
    );
    expect(metrics.text).toContain('pipework_nodejs_eventloop_lag_seconds');
    expect((await http(server.url, '/metrics', { auth: ann })).status).toBe(403);
    expect((await http(server.url, '/metrics')).status).toBe(401);
  });
});
