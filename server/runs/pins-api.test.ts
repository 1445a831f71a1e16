import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * Pins: a recorded step output kept on a stored pipeline stands in for that step in the workbench's runs
 * that ask for pins, and nowhere else. The step writes a counter property: its value proves whether it ran.
 */
let server: TestServer;
let carl: string;
const APP = `global/app/pins${Date.now()}`;
const KEY = `${APP}/pipeline/count`;
const COUNTER = `${APP}/counter`;
const TEXT = [
  'pipeline:',
  '  - set.body:',
  '      value: start',
  '  - property.put:',
  `      key: ${COUNTER}`,
  `      value: "#{@property.value('${COUNTER}') + 1}"`,
  '  - set.body:',
  '      value: "#{body.value}"',
  '',
].join('\n');

beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_RUNS_FLUSH_MILLIS: '50' } });
  await server.services.iam.createUser({ username: 'carl', password: 'carl-pw', roles: ['ROLE_DEVELOPER'] });
  carl = server.basicAuth('carl', 'carl-pw');
  await store(COUNTER, '0', 'application/json');
  await store(KEY, TEXT, 'application/yaml');
});
afterAll(() => server.close());

async function store(key: string, value: string, type: string): Promise<void> {
  const query = new URLSearchParams({ key, type, evalValue: 'false' });
  const answer = await http(server.url, `/api/v3/command/property.schema.put?${query}`, {
    auth: server.adminAuth,
    type: 'text/plain',
    body: value,
  });
  expect(answer.status, answer.text).toBe(200);
}

async function counter(): Promise<number> {
  const answer = await http(server.url, `/api/v3/command/property.value.get?key=${COUNTER}`, {
    auth: server.adminAuth,
  });
  return Number(answer.text);
}

const debugRun = (body: Record<string, unknown>, auth = server.adminAuth): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline/debug', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: TEXT, form: 'yaml', ...body }),
  });

const pin = (runId: string, body: Record<string, unknown>, auth = server.adminAuth): Promise<HttpResponse> =>
  http(server.url, `/api/v3/runs/${runId}/pin`, {
    auth,
    type: 'application/json',
    body: JSON.stringify(body),
  });

/** The newest workbench run of the pipeline started at `since` or later (the history is written in batches). */
async function latestWorkbenchRun(since: number): Promise<string> {
  return eventually(async () => {
    const list = await http(
      server.url,
      `/api/v3/runs?pipeline=${KEY}&trigger=workbench&limit=1&from=${since}`,
      {
        auth: server.adminAuth,
      },
    );
    return list.json.runs[0]?.id as string | undefined;
  });
}

describe('workbench runs of a stored pipeline', () => {
  it('are re-run with the text the editor ran, not the stored one', async () => {
    const before = await counter();
    const edited = 'pipeline:\n  - set.body:\n      value: edited, not saved\n';
    const since = Date.now();
    expect((await debugRun({ key: KEY, pipeline: edited })).status).toBe(200);
    const id = await latestWorkbenchRun(since);
    const started = await http(server.url, `/api/v3/runs/${id}/rerun`, { auth: server.adminAuth, body: '' });
    expect(started.status, started.text).toBe(202);
    const run = await eventually(async () => {
      const answer = await http(server.url, `/api/v3/runs/${started.json.runId}`, { auth: server.adminAuth });
      return answer.json.status === 'succeeded' || answer.json.status === 'failed' ? answer.json : undefined;
    });
    expect(run).toMatchObject({ status: 'succeeded', output: 'edited, not saved', pipelineKey: KEY });
    expect(await counter()).toBe(before);
  });
});

describe('pins', () => {
  let runId: string;

  it('records a workbench run under the stored pipeline it names', async () => {
    const before = await counter();
    const since = Date.now();
    const answer = await debugRun({ key: KEY });
    expect(answer.status, answer.text).toBe(200);
    expect(await counter()).toBe(before + 1);
    runId = await latestWorkbenchRun(since);
  });

  it('pins a recorded output, and a run that asks for pins uses it without running the step', async () => {
    const pinned = await pin(runId, { stepIndex: 1 });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.json.pins).toMatchObject([{ stepIndex: 1, command: 'property.put', runId }]);
    const before = await counter();
    const answer = await debugRun({ key: KEY, pins: true });
    expect(answer.status, answer.text).toBe(200);
    expect(await counter()).toBe(before);
    expect(answer.json.pinned).toEqual([1]);
    const step = answer.json.trace.find((entry: { index: number }) => entry.index === 1);
    expect(step.pinned).toBe(true);
    expect(step.logs[0].message).toMatch(/^Pinned: the output recorded in run/);
    expect(answer.json.body).toBe(before);
  });

  it('is ignored by runs that do not ask for pins: the workbench without pins, the stored pipeline', async () => {
    const before = await counter();
    expect((await debugRun({ key: KEY })).status).toBe(200);
    const stored = await http(server.url, `/api/v3/pipeline:${KEY}`, { auth: server.adminAuth, body: '' });
    expect(stored.status, stored.text).toBe(200);
    expect(await counter()).toBe(before + 2);
  });

  it('is not used once the step at its index is another command', async () => {
    const before = await counter();
    const changed = TEXT.replace('  - property.put:', '  - property.schema.put:');
    const answer = await debugRun({ key: KEY, pins: true, pipeline: changed });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.pinned).toEqual([]);
    expect(await counter()).toBe(before + 1);
  });

  it("refuses what cannot be pinned, and hides another user's runs", async () => {
    const inline = await pin(runId, { stepIndex: 1, pipeline: 'global/notes/x' });
    expect(inline.status).toBe(400);
    expect(inline.json.value.code).toBe('PARAM_INVALID');
    const missing = await pin(runId, { stepIndex: 9 });
    expect(missing.status).toBe(409);
    const bad = await pin(runId, { stepIndex: 'one' });
    expect(bad.status).toBe(400);
    const foreign = await pin(runId, { stepIndex: 1 }, carl);
    expect(foreign.status).toBe(404);
    const refusedPins = await debugRun({ pins: true });
    expect(refusedPins.status).toBe(400);
  });

  it('unpins: the step runs again', async () => {
    const removed = await http(server.url, `/api/v3/pins?pipeline=${KEY}&step=1`, {
      auth: server.adminAuth,
      method: 'DELETE',
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.pins).toEqual([]);
    const before = await counter();
    const answer = await debugRun({ key: KEY, pins: true });
    expect(answer.json.pinned).toEqual([]);
    expect(await counter()).toBe(before + 1);
    const listed = await http(server.url, `/api/v3/pins?pipeline=${KEY}`, { auth: server.adminAuth });
    expect(listed.json).toEqual({ pipelineKey: KEY, pins: [] });
  });
});
