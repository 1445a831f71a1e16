/**
 * `POST /api/v3/pipeline:<key>` runs a stored pipeline parsed once per version: a change on this instance
 * is seen by the very next call, a change on another instance (PostgreSQL) as soon as its event arrives, and
 * the caller's right to read the key is checked on every call. Runs of valid texts compute no positions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { locatedTexts } from '../../shared/pipeline';
import { http } from '../testing/http-client';
import { useTestPostgres } from '../testing/postgres-cluster';
import { startTestServer, type TestServer } from '../testing/test-server';

const KEY = 'global/app/cachetest/pipeline/greet';
const greeting = (word: string) => `pipeline:\n  - set.body: "${word} #{body.name}"\n`;

async function store(server: TestServer, key: string, text: string, auth = server.adminAuth) {
  const answer = await http(server.url, `/api/v3/pipeline:${key}`, {
    method: 'PUT',
    auth,
    type: 'application/yaml',
    body: text,
  });
  expect(answer.status, answer.text).toBe(200);
}

async function run(server: TestServer, key: string, auth = server.adminAuth) {
  return http(server.url, `/api/v3/pipeline:${key}`, {
    auth,
    type: 'application/json',
    body: JSON.stringify({ name: 'Ada' }),
  });
}

describe('stored pipelines by key, on SQLite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('reads and parses a stored pipeline once, and the next call after a change runs the new version', async () => {
    await store(server, KEY, greeting('Hello'));
    // The write's event comes after its answer; a read it overtakes is (rightly) not kept, so let it pass first.
    await server.services.events.idle();
    const reads = vi.spyOn(server.services.properties, 'get');
    try {
      for (let i = 0; i < 3; i++) expect((await run(server, KEY)).text).toBe('Hello Ada');
      expect(reads).toHaveBeenCalledTimes(1);
      await store(server, KEY, greeting('Welcome'));
      expect((await run(server, KEY)).text).toBe('Welcome Ada');
      // A change through a command, not the pipeline endpoint, is seen at once too.
      const put = await http(server.url, '/api/v3/command/property.put', {
        auth: server.adminAuth,
        type: 'application/json',
        body: JSON.stringify({ key: KEY, value: 'pipeline:\n  - set.body: Hi there\n' }),
      });
      expect(put.status, put.text).toBe(200);
      expect((await run(server, KEY)).text).toBe('Hi there');
      expect(reads).toHaveBeenCalledTimes(3);
    } finally {
      reads.mockRestore();
    }
    const removed = await http(server.url, `/api/v3/command/property.delete?key=${KEY}`, {
      method: 'POST',
      auth: server.adminAuth,
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await run(server, KEY)).status).toBe(404);
  });

  it("checks the caller's right on every call, also when the pipeline is cached", async () => {
    const admin = await server.services.iam.principalByUsername('admin');
    const key = `user/${admin!.uuid}/pipeline/private`;
    await store(server, key, greeting('Secret'));
    expect((await run(server, key)).text).toBe('Secret Ada');
    await server.services.iam.createUser({ username: 'pat', password: 'pat-password-1' });
    const pat = server.basicAuth('pat', 'pat-password-1');
    const refused = await run(server, key, pat);
    expect(refused.status).toBe(403);
    expect(refused.json.value.code).toBe('FORBIDDEN');
  });

  it('runs valid texts, stored or inline, without computing a source position', async () => {
    await store(server, KEY, greeting('Hello'));
    const before = locatedTexts();
    for (let i = 0; i < 3; i++) {
      expect((await run(server, KEY)).text).toBe('Hello Ada');
      const inline = await http(server.url, '/api/v3/pipeline', {
        auth: server.adminAuth,
        type: 'application/yaml',
        body: `body: {"n": ${i}}\npipeline:\n  - set.var:\n      key: x\n      value: "#{body.n + 1}"\n  - set.body: "#{vars.x}"\n`,
      });
      expect(inline.text).toBe(String(i + 1));
    }
    expect(locatedTexts()).toBe(before);
    // An error still names its line and column.
    const failing = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: 'pipeline:\n  - log:\n      message: ok\n  - set.body: "#{1 / nosuch.x}"\n',
    });
    expect(failing.status).toBeGreaterThanOrEqual(400);
    expect(failing.json.value).toMatchObject({ code: 'PEL_EVAL', line: 4, column: 22 });
  });
});

describe('stored pipelines by key, on two instances sharing PostgreSQL', () => {
  const cluster = useTestPostgres('the stored-pipeline cache across instances');
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    if (cluster.missing) return;
    const env = { PIPEWORK_DATABASE_URL: cluster.postgres.url };
    a = await startTestServer({ env });
    b = await startTestServer({ env });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it.skipIf(cluster.missing !== undefined)(
    "drops a cached pipeline when another instance changes it, once that instance's event arrives",
    async () => {
      await store(a, KEY, greeting('Hello'));
      expect((await run(b, KEY)).text).toBe('Hello Ada');
      await store(a, KEY, greeting('Welcome'));
      await vi.waitFor(async () => expect((await run(b, KEY)).text).toBe('Welcome Ada'), {
        timeout: 5_000,
        interval: 20,
      });
    },
  );
});
