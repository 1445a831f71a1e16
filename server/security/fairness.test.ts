/**
 * Fairness (finding 2's "no limit on concurrent runs per user" and finding 5): one user's many runs or
 * looping scripts may not keep another user waiting. Runs hold per-user slots with a fair queue
 * (`server/fairness/run-slots.ts`); script workers are shared the same way (`server/script/script-pool.ts`).
 * Slow runs here wait on a loopback HTTP server the test holds open, so nothing depends on timing guesses.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

/** A loopback HTTP server that answers a request only when the test releases it. */
async function holdingServer() {
  const held: { path: string; res: ServerResponse }[] = [];
  const arrived: string[] = [];
  const server: Server = createServer((req, res) => {
    arrived.push(req.url!);
    held.push({ path: req.url!, res });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const release = (path?: string) => {
    const index = held.findIndex((h) => path === undefined || h.path === path);
    if (index < 0) throw new Error(`nothing held at ${path}`);
    held.splice(index, 1)[0]!.res.end('released');
  };
  return {
    url,
    arrived,
    release,
    releaseAll: () => {
      while (held.length > 0) release();
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const until = (check: () => boolean, what: string) =>
  eventually(async () => (check() ? true : undefined), { within: 10_000, every: 10, what });

function runPipeline(server: TestServer, auth: string, steps: unknown[]): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: steps }),
  });
}

describe('pipeline runs: per-user slots with a fair queue', () => {
  let server: TestServer;
  let hold: Awaited<ReturnType<typeof holdingServer>>;
  const auth: Record<string, string> = {};
  const slow = (user: string, tag: string) =>
    runPipeline(server, auth[user]!, [{ 'http.get': { url: `${hold.url}/hold/${user}-${tag}` } }]);
  const usage = (user: string) =>
    server.services.runSlots.usage({ username: user } as Parameters<
      TestServer['services']['runSlots']['usage']
    >[0]);

  beforeAll(async () => {
    hold = await holdingServer();
    server = await startTestServer({
      env: {
        PIPEWORK_RUNS_PER_USER: '2',
        PIPEWORK_RUNS_TOTAL: '3',
        PIPEWORK_RUN_QUEUE_PER_USER: '2',
        PIPEWORK_HTTP_ALLOW_HOSTS: '127.0.0.1',
      },
    });
    for (const user of ['ann', 'ben', 'cat']) {
      await server.services.iam.createUser({
        username: user,
        password: `${user}-pw`,
        roles: ['ROLE_DEVELOPER'],
      });
      auth[user] = server.basicAuth(user, `${user}-pw`);
    }
  });
  afterEach(() => hold.releaseAll());
  afterAll(async () => {
    hold.close();
    await server.close();
  });

  it("queues a user's runs past their slots, refuses past their queue with 429, and does not delay another user", async () => {
    const running = [1, 2, 3, 4].map((n) => slow('ann', `a${n}`));
    await until(() => hold.arrived.length === 2, "ann's first two runs to start");
    await until(() => usage('ann').waiting === 2, "ann's next two runs to wait");
    expect(usage('ann')).toEqual({ held: 2, waiting: 2 });

    const refused = await slow('ann', 'a5');
    expect(refused.status).toBe(429);
    expect(refused.json.value.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.json.value.message).toContain("'ann'");
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const started = Date.now();
    const simple = await runPipeline(server, auth.ben!, [{ set: { value: 'quick' } }]);
    expect(simple.status, simple.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);

    while (hold.arrived.length < 4) {
      await until(() => hold.arrived.length > 0, 'a held run');
      hold.releaseAll();
      await new Promise((r) => setTimeout(r, 20));
    }
    hold.releaseAll();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(hold.arrived).toHaveLength(4); // the refused fifth never ran
  });

  it('gives a freed slot to the waiting user who holds the fewest, before a longer backlog', async () => {
    hold.arrived.length = 0;
    const runs = [slow('ann', 'b1'), slow('ann', 'b2'), slow('cat', 'b1')];
    await until(() => hold.arrived.length === 3, 'all three slots taken');
    runs.push(slow('ann', 'b3'), slow('ann', 'b4'));
    await until(() => usage('ann').waiting === 2, "ann's backlog");
    runs.push(slow('ben', 'b1'));
    await until(() => usage('ben').waiting === 1, "ben's run to wait");

    hold.release('/hold/ann-b1'); // ann now holds 1 slot and has waited longer; ben holds none
    await until(() => hold.arrived.length === 4, 'the freed slot to be taken');
    expect(hold.arrived[3]).toBe('/hold/ben-b1');
    expect(usage('ann')).toEqual({ held: 1, waiting: 2 });

    while (hold.arrived.length < 6) {
      hold.releaseAll();
      await new Promise((r) => setTimeout(r, 20));
    }
    hold.releaseAll();
    expect((await Promise.all(runs)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('runs pipelines started from a run inside its slot: nesting never waits for a slot', async () => {
    const admin = (await server.services.iam.principalByUsername('admin'))!;
    const { properties } = server.services;
    await properties.create(admin, {
      key: 'global/app/nest/pipeline/inner',
      value: 'pipeline:\n  - set:\n      value: inner ran\n',
    });
    await properties.create(admin, {
      key: 'global/app/nest/pipeline/middle',
      value: 'pipeline:\n  - pipeline.start: global/app/nest/pipeline/inner\n',
    });
    const holding = [slow('ann', 'c1')];
    await until(() => usage('ann').held === 1, 'one of ann’s slots held');
    // Three runs deep while only one slot is free: nested runs would need three.
    const nested = await runPipeline(server, auth.ann!, [
      { 'pipeline.start': { key: 'global/app/nest/pipeline/middle' } },
    ]);
    expect(nested.status, nested.text).toBe(200);
    expect(nested.text).toContain('inner ran');
    hold.releaseAll();
    await Promise.all(holding);
  });
});

describe('pipeline runs: the wait for a slot is bounded and counts against the run’s time limit', () => {
  let server: TestServer;
  let hold: Awaited<ReturnType<typeof holdingServer>>;
  beforeAll(async () => {
    hold = await holdingServer();
    server = await startTestServer({
      env: {
        PIPEWORK_RUNS_PER_USER: '1',
        PIPEWORK_RUN_QUEUE_MILLIS: '400',
        PIPEWORK_MAX_PIPELINE_MILLIS: '1500',
        PIPEWORK_HTTP_ALLOW_HOSTS: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    hold.releaseAll();
    hold.close();
    await server.close();
  });

  it('refuses a run that waited past the queue limit with 429, and shortens the limit of one that waited', async () => {
    const get = (tag: string) => [{ 'http.get': { url: `${hold.url}/hold/${tag}` } }];
    const first = runPipeline(server, server.adminAuth, get('first'));
    await until(() => hold.arrived.length === 1, 'the first run to hold the slot');
    const started = Date.now();
    const waited = await runPipeline(server, server.adminAuth, [{ set: { value: 'late' } }]);
    expect(waited.status).toBe(429);
    expect(waited.json.value.code).toBe('TOO_MANY_REQUESTS');
    expect(waited.json.value.message).toMatch(/waited \d+ ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(waited.headers.get('retry-after')).not.toBeNull();

    // The next run waits ~300 ms of its 1,500: it ends at its limit ~1,500 ms after it was sent, not 1,800.
    const sent = Date.now();
    const second = runPipeline(server, server.adminAuth, get('second'));
    await new Promise((r) => setTimeout(r, 300));
    hold.release('/hold/first');
    expect((await first).status).toBe(200);
    const limited = await second;
    expect(limited.status, limited.text).toBe(422);
    expect(limited.json.value.code).toBe('LIMIT_EXCEEDED');
    expect(Date.now() - sent).toBeLessThan(1750);
  });
});

describe('scripts: workers shared fairly among users (finding 5)', () => {
  let server: TestServer;
  let ann: string;
  let ben: string;
  const looping = 'function command() { for (;;) {} }';
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PIPEWORK_SCRIPT_WORKERS: '2',
        PIPEWORK_SCRIPT_MILLIS: '2000',
        PIPEWORK_SCRIPT_QUEUE_PER_USER: '5',
      },
    });
    for (const user of ['ann', 'ben'])
      await server.services.iam.createUser({
        username: user,
        password: `${user}-pw`,
        roles: ['ROLE_DEVELOPER'],
      });
    ann = server.basicAuth('ann', 'ann-pw');
    ben = server.basicAuth('ben', 'ben-pw');
  });
  afterAll(() => server.close());

  it("runs user B's one-line script at once while user A has six looping scripts queued", async () => {
    const script = (auth: string, code: string) =>
      runPipeline(server, auth, [{ 'script.run': { script: code } }]);
    // Both workers started first (a worker's first start takes a while): what is measured is the queue.
    const warm = await Promise.all([
      script(ann, 'function command() { return 1; }'),
      script(ben, 'function command() { return 2; }'),
    ]);
    expect(warm.map((r) => r.status)).toEqual([200, 200]);
    const flood = Array.from({ length: 6 }, () => script(ann, looping).catch(() => undefined));
    await until(() => server.services.scripts.usage('ann').waiting === 5, "ann's scripts to queue");
    expect(server.services.scripts.usage('ann')).toEqual({ held: 1, waiting: 5 });

    const refused = await script(ann, looping);
    expect(refused.status).toBe(429);
    expect(refused.json.value.code).toBe('TOO_MANY_REQUESTS');

    const started = Date.now();
    const quick = await script(ben, 'function command() { return "ben was served"; }');
    const elapsed = Date.now() - started;
    expect(quick.status, quick.text).toBe(200);
    expect(quick.text).toContain('ben was served');
    expect(elapsed).toBeLessThan(1000); // before: behind ann's scripts, 2 s per worker turn
    void flood;
  }, 30_000);
});
