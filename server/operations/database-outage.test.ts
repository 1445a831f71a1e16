/**
 * What docs/operations.md says about a PostgreSQL outage, for real: while the database refuses connections
 * (`ALLOW_CONNECTIONS false`, every session ended), `/healthz` still answers, requests that need the database
 * fail at once with an error (no hang), and once the database is back the same server process serves reads,
 * writes, logins, expressions and event streams again without a restart.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand } from '../testing/command-forms';
import { eventually } from '../testing/eventually';
import { http } from '../testing/http-client';
import { type TestPostgres, postgresMissingReason, startTestPostgres } from '../testing/postgres';
import { TEST_ADMIN_PASSWORD, startTestServer } from '../testing/test-server';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL outage tests skipped: ${pgMissing}`);
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgres!.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** How long the server may take to serve again once the database is back. */
const untilBack = { within: 20_000, every: 200 };

/** Reads an SSE stream's text until `seen` appears in it; the promise settles then, or fails on timeout. */
async function streamUntil(url: string, auth: string, seen: string, ms: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const response = await fetch(url, { headers: { authorization: auth }, signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(seen)) {
      const read = await reader.read();
      if (read.done) throw new Error('the stream ended');
      text += decoder.decode(read.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe.skipIf(pgMissing !== undefined)('a PostgreSQL outage under a running server', () => {
  it('fails requests at once while the database is away and serves again when it is back', async () => {
    await admin('CREATE DATABASE outage');
    const url = new URL(postgres!.url);
    url.pathname = '/outage';
    const server = await startTestServer({ env: { PIPEWORK_DATABASE_URL: url.href } });
    const put = (key: string) =>
      callCommand('pipeline', server.url, 'property.schema.put', { key, value: key }, server.adminAuth);
    const get = (key: string) => callCommand('GET', server.url, 'property.get', { key }, server.adminAuth);
    try {
      expect((await put('global/outage/before')).status).toBe(200);

      await admin('ALTER DATABASE outage WITH ALLOW_CONNECTIONS false');
      await admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'outage'");
      expect((await http(server.url, '/healthz')).status).toBe(200);
      expect((await http(server.url, '/readyz')).status).toBe(503);
      const started = Date.now();
      for (const failed of [await get('global/outage/before'), await put('global/outage/during')]) {
        expect(failed.status).toBe(503);
        expect(failed.json.value.code).toBe('UNAVAILABLE');
      }
      expect(Date.now() - started).toBeLessThan(5_000);

      await admin('ALTER DATABASE outage WITH ALLOW_CONNECTIONS true');
      const back = await eventually(async () => {
        const read = await get('global/outage/before');
        return read.status === 200 ? read : undefined;
      }, untilBack);
      expect(back.json.value).toBe('global/outage/before');
      expect((await http(server.url, '/readyz')).status).toBe(200);
      expect((await get('global/outage/during')).status).toBe(404);
      const login = await http(server.url, '/auth/realms/pipework/protocol/openid-connect/token', {
        type: 'application/x-www-form-urlencoded',
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'cli',
          username: 'admin',
          password: TEST_ADMIN_PASSWORD,
        }).toString(),
      });
      expect(login.status).toBe(200);
      // So did the worker that answers expressions synchronously (its connections were ended too).
      const expression = await http(server.url, '/api/v3/pipeline', {
        auth: server.adminAuth,
        type: 'application/json',
        body: JSON.stringify({
          pipeline: [{ set: { value: "#{@property.value('global/outage/before')}" } }],
        }),
      });
      expect(expression.text).toBe('global/outage/before');
      // The listening connection came back too: a write made now reaches an event stream.
      await eventually(async () => {
        const key = `global/outage/after/${Date.now()}`;
        const streamed = streamUntil(
          `${server.url}/api/v3/events?filter=global/outage/after/**`,
          server.adminAuth,
          key,
          2_000,
        );
        await new Promise((r) => setTimeout(r, 200));
        expect((await put(key)).status).toBe(200);
        return streamed.then(
          () => true,
          () => undefined,
        );
      }, untilBack);
    } finally {
      await admin('ALTER DATABASE outage WITH ALLOW_CONNECTIONS true');
      await server.close();
    }
  }, 60_000);
});
