// Triggers on two server processes sharing one PostgreSQL database, as behind a load balancer: a job runs
// once per tick in the installation although both instances schedule it; a webhook is answered by either
// instance; an async run started on one is polled (status, result) on the other, never by another user.
// Every wait is on a condition with a generous bound: nothing here depends on how fast the machine is.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/testing/eventually';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../server/testing/postgres';
import { ADMIN_AUTH, type ServerProcess, killHard, startServerProcess } from './support/server-process';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`Two-instance trigger tests skipped: ${pgMissing}`);

/** Where the instances keep their data folders; PIPEWORK_TEST_PORT_BASE picks their ports (0: any free one). */
const DATA_ROOT = process.env.PIPEWORK_TEST_DATA_ROOT ?? '/tmp';
const PORT_BASE = Number(process.env.PIPEWORK_TEST_PORT_BASE ?? 0);

let postgres: TestPostgres | undefined;
let a: ServerProcess;
let b: ServerProcess;
const dataDirs: string[] = [];

async function instance(env: Record<string, string>, n: number): Promise<ServerProcess> {
  mkdirSync(DATA_ROOT, { recursive: true });
  const dir = mkdtempSync(join(DATA_ROOT, 'pipework-triggers-'));
  dataDirs.push(dir);
  return startServerProcess(dir, { ...env, PORT: String(PORT_BASE === 0 ? 0 : PORT_BASE + n) });
}

beforeAll(async () => {
  if (pgMissing) return;
  postgres = await startTestPostgres();
  const env = { PIPEWORK_DATABASE_URL: postgres.url, PIPEWORK_RUNS_FLUSH_MILLIS: '200' };
  [a, b] = await Promise.all([instance(env, 1), instance(env, 2)]);
}, 300_000);

afterAll(async () => {
  for (const server of [a, b]) if (server) await killHard(server);
  postgres?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads arbitrary results
  text: string;
}

async function call(
  server: ServerProcess,
  path: string,
  init: {
    method?: string;
    body?: string;
    type?: string;
    auth?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== null) headers.authorization = init.auth ?? ADMIN_AUTH;
  if (init.type) headers['content-type'] = init.type;
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** Runs a one-step pipeline on an instance. */
const command = (server: ServerProcess, name: string, params: Record<string, unknown>, auth?: string) =>
  call(server, '/api/v3/pipeline', {
    method: 'POST',
    body: JSON.stringify({ pipeline: [{ [name]: params }] }),
    type: 'application/json',
    auth,
  });

const storePipeline = async (server: ServerProcess, key: string, yaml: string) => {
  const stored = await call(server, `/api/v3/pipeline:${key}`, {
    method: 'PUT',
    body: yaml,
    type: 'application/yaml',
  });
  expect(stored.status, stored.text).toBeLessThan(300);
};

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe.skipIf(pgMissing !== undefined)('triggers on two instances of one PostgreSQL database', () => {
  it('runs a job once per tick although both instances schedule it', async () => {
    const key = 'global/app/twojobs/pipeline/tick';
    await storePipeline(a, key, 'pipeline:\n  - job: EVERY_1_MIN\n  - log: tick\n');
    // Both instances have registered it (b through the property events) and agree on the next tick.
    const nextRuns = await Promise.all(
      [a, b].map((server) =>
        eventually(
          async () => {
            const status = await command(server, 'job.status', { pipelineKey: key });
            return status.status === 200 && status.json?.nextRun ? status.json.nextRun : undefined;
          },
          { within: 60_000, what: 'the job on both instances' },
        ),
      ),
    );
    const tick = Math.max(...nextRuns.map((t) => (typeof t === 'number' ? t : Date.parse(String(t)))));
    const runsOf = async () =>
      (await call(a, `/api/v3/runs?trigger=job&pipeline=${encodeURIComponent(key)}&limit=500`)).json.runs as {
        created: number;
        instance: string;
        status: string;
      }[];
    // The tick both had scheduled runs, and ends; then the same tick is claimed by nobody else.
    await eventually(
      async () => {
        const done = (await runsOf()).filter((r) => r.created >= tick - 1000 && r.status === 'succeeded');
        return done.length > 0 ? done : undefined;
      },
      { within: 150_000, every: 500, what: 'the job’s tick' },
    );
    const status = await eventually(
      async () => {
        const answers = await Promise.all([a, b].map((s) => command(s, 'job.status', { pipelineKey: key })));
        const seen = answers.map((x) => x.json?.lastStatus);
        return seen.every((s) => s === 'succeeded') ? answers.map((x) => x.json) : undefined;
      },
      { within: 60_000, what: 'both instances to see the tick’s end' },
    );
    expect(status[0].lastRun).toEqual(status[1].lastRun);
    const inTick = (await runsOf()).filter((r) => r.created >= tick - 1000 && r.created < tick + 59_000);
    expect(inTick).toHaveLength(1);
  }, 300_000);

  it('answers a webhook on either instance', async () => {
    const key = 'global/app/twohooks/pipeline/echo';
    await storePipeline(a, key, 'pipeline:\n  - set.body:\n      value: "got #{body.payload.name}"\n');
    const put = await command(a, 'webhook.put', {
      eventKey: 'webhook.two',
      pipeline: key,
      payloadType: 'raw',
    });
    expect(put.status, put.text).toBe(200);
    const token = put.json.token as string;
    for (const [server, name] of [
      [b, 'Bea'],
      [a, 'Abe'],
    ] as const) {
      const answer = await call(server, '/api/v3/command/webhook.receive?wait=true', {
        method: 'POST',
        auth: null,
        headers: { token },
        body: JSON.stringify({ name }),
        type: 'application/json',
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json ?? answer.text).toBe(`got ${name}`);
    }
    // In the background on b, its result read on a.
    const started = await call(b, '/api/v3/webhook/receive', {
      method: 'POST',
      auth: null,
      headers: { token },
      body: JSON.stringify({ name: 'Cy' }),
      type: 'application/json',
    });
    expect(started.status, started.text).toBe(202);
    const run = await eventually(
      async () => {
        const found = await call(a, `/api/v3/runs/${started.json.correlationId}`);
        return found.json?.status === 'succeeded' ? found.json : undefined;
      },
      { within: 60_000, what: 'the webhook run' },
    );
    expect(run.output).toBe('got Cy');
    // A revoked token is a plain 404 on both.
    expect((await command(a, 'webhook.delete', { uuid: put.json.uuid })).status).toBe(200);
    for (const server of [a, b]) {
      const revoked = await call(server, '/api/v3/webhook/receive?wait=true', {
        method: 'POST',
        auth: null,
        headers: { token },
        body: '{}',
        type: 'application/json',
      });
      expect(revoked.status).toBe(404);
    }
  });

  it('reads an async run started on one instance on the other: status, then result; not another user', async () => {
    const created = await command(a, 'iam.user.create', {
      name: 'otto',
      email: 'otto@example.com',
      password: 'otto-pw-123',
    });
    expect(created.status, created.text).toBe(200);
    const started = await call(a, '/api/v3/pipeline?async=true', {
      method: 'POST',
      body: 'pipeline:\n  - wait:\n      ms: 1500\n  - set.body:\n      value: finished on a\n',
      type: 'application/yaml',
    });
    expect(started.status, started.text).toBe(202);
    const id = started.json.correlationId as string;
    const first = await call(b, `/api/v3/command/async.poll?correlationId=${id}`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.correlationId).toBe(id);
    const done = await eventually(
      async () => {
        const polled = await call(b, `/api/v3/command/async.poll?correlationId=${id}`);
        return polled.json?.status === 'running' ? undefined : polled.json;
      },
      { within: 60_000, what: 'the async run to finish' },
    );
    expect(done).toMatchObject({ status: 'finished', statusCode: 200, value: 'finished on a' });
    const record = await call(b, `/api/v3/runs/${id}`);
    expect(record.json).toMatchObject({ status: 'succeeded', output: 'finished on a', async: true });
    const otto = basic('otto', 'otto-pw-123');
    const foreign = await call(b, `/api/v3/command/async.poll?correlationId=${id}`, { auth: otto });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('finished on a');
  });
});
