import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { http, putPipeline, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * What a run's commands know of their run travels on their services (`run-scope.ts`): a pipeline started in
 * place shares its caller's secret mask and is recorded as its child, and none of it enters an
 * AsyncLocalStorage (on Node 20 that would hook every promise of the process from then on).
 */
let server: TestServer;

const SECRET = 'scope-secret-7a41c9';
const CHILD = 'global/app/scope/pipeline/child';

beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_RUNS_TRACE_SAMPLE: '0' } });
  const child = [
    'pipeline:',
    '  - secret.put:',
    '      name: scope-secret',
    '      format: secret-text',
    `      secret: ${SECRET}`,
    '  - set.body:',
    '      value: child done',
  ].join('\n');
  const stored = await putPipeline(server.url, CHILD, child, server.adminAuth);
  expect(stored.status).toBe(200);
});
afterAll(() => server.close());

const PARENT = [
  'pipeline:',
  `  - pipeline.start: ${CHILD}`,
  '  - set.body:',
  `      value: "after the child: ${SECRET}"`,
].join('\n');

const pipe = (yaml: string, query = ''): Promise<HttpResponse> =>
  http(server.url, `/api/v3/pipeline${query}`, {
    auth: server.adminAuth,
    type: 'application/yaml',
    body: yaml,
  });

describe('the run scope', () => {
  it('shares the secret mask with a pipeline started in place: the caller masks what the child registered', async () => {
    const answer = await pipe(PARENT);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('after the child: *****');
  });

  it('records a pipeline started in place as the child of the run that started it, both masked', async () => {
    const started = await pipe(PARENT, '?async=true');
    expect(started.status).toBe(202);
    const parentId = started.json.runId as string;
    const children = await eventually(async () => {
      const list = await http(server.url, `/api/v3/runs?parent=${parentId}`, { auth: server.adminAuth });
      return list.json.runs.length > 0 ? list.json.runs : undefined;
    });
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ parentId, pipelineKey: CHILD, status: 'succeeded' });
    // What the history keeps of the parent (its text as sent, its answer) is masked as its answer is.
    const parent = await http(server.url, `/api/v3/runs/${parentId}`, { auth: server.adminAuth });
    expect(parent.json).toMatchObject({ status: 'succeeded', output: 'after the child: *****' });
    expect(parent.json.source.text).toContain('after the child: *****');
    expect(parent.text).not.toContain(SECRET);
  });

  describe('without AsyncLocalStorage', () => {
    const run = AsyncLocalStorage.prototype.run;
    const enterWith = AsyncLocalStorage.prototype.enterWith;
    afterEach(() => {
      AsyncLocalStorage.prototype.run = run;
      AsyncLocalStorage.prototype.enterWith = enterWith;
    });

    it('runs pipelines, nested runs, secrets and the run history without entering one', async () => {
      let entered = 0;
      AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: unknown[]) {
        entered++;
        return Reflect.apply(run, this, args) as unknown;
      } as typeof run;
      AsyncLocalStorage.prototype.enterWith = function (this: AsyncLocalStorage<unknown>, store) {
        entered++;
        enterWith.call(this, store);
      };
      const answer = await pipe(PARENT);
      expect(answer.text).toBe('after the child: *****');
      const stored = await http(server.url, `/api/v3/pipeline:${CHILD}`, {
        auth: server.adminAuth,
        type: 'application/json',
        body: '{}',
      });
      expect(stored.text).toBe('child done');
      expect(entered).toBe(0);
    });
  });
});
