// What clients and operators call around the API: server.info, log.list, pipeline.get and the schema under
// all of its names, as the command reference names them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger';
import { RecentLogs, scrubSecrets } from '../logging/recent-logs';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
const recentLogs = new RecentLogs(50);
beforeAll(async () => {
  const sink = { write: () => undefined };
  server = await startTestServer({
    logger: createLogger('info', sink as never, recentLogs),
    services: { recentLogs },
  });
  await server.services.iam.createUser({ username: 'ulla', password: 'ulla-pw' });
});
afterAll(() => server.close());

const get = (path: string, auth = server.adminAuth) => http(server.url, path, { auth });

describe('server.info', () => {
  it('answers the flat JSON the reference lists', async () => {
    const info = await get('/api/v3/command/server.info');
    expect(info.status).toBe(200);
    expect(Object.keys(info.json).sort()).toEqual(
      [
        'build',
        'domain',
        'edition',
        'namespace',
        'stage',
        'status',
        'tag',
        'version',
        'versionBugfix',
        'versionMajor',
        'versionMinor',
      ].sort(),
    );
    expect(info.json.version).toBe(
      `${info.json.versionMajor}.${info.json.versionMinor}.${info.json.versionBugfix}`,
    );
  });
});

describe('log.list', () => {
  it("by default admins read this instance's recent lines as text or JSON, filtered; no credentials in them", async () => {
    const secret = 'Bearer abcdefghijklmnopqrstuvwxyz012345';
    server.services.logger.info({ password: 'hunter2', note: secret }, 'a line with secrets');
    server.services.logger.warn('a warning to find');
    const text = await get('/api/v3/command/log.list?lines=10');
    expect(text.status).toBe(200);
    expect(text.text).toContain('a line with secrets');
    expect(text.text).not.toContain('hunter2');
    expect(text.text).not.toContain('abcdefghijklmnopqrstuvwxyz012345');
    const json = await get('/api/v3/command/log.list?service=hub&format=json&level=warn&contains=warning');
    expect(json.json).toEqual([expect.objectContaining({ msg: 'a warning to find', level: 40 })]);
    const user = await get('/api/v3/command/log.list', server.basicAuth('ulla', 'ulla-pw'));
    expect([user.status, user.json.value.code]).toEqual([403, 'FORBIDDEN']);
    const other = await get('/api/v3/command/log.list?service=mail');
    expect(other.json.value.code).toBe('PARAM_INVALID');
    const bad = await get('/api/v3/command/log.list?lines=-1');
    expect(bad.json.value.code).toBe('PARAM_INVALID');
  });

  it('keeps a bounded number of lines and scrubs tokens in any form', () => {
    const ring = new RecentLogs(3);
    for (let i = 0; i < 10; i++) ring.write(`{"level":30,"msg":"line ${i}"}\n`);
    expect(ring.list({ lines: 100 })).toHaveLength(3);
    expect(ring.list({ lines: 100 })[2]).toContain('line 9');
    expect(scrubSecrets('{"refresh_token":"abc","x":"Apitoken pwapi_secretvalue1"}')).toBe(
      '{"refresh_token":"[REDACTED]","x":"Apitoken [REDACTED]"}',
    );
  });
});

describe('pipeline.get and the schema names', () => {
  it('pipeline.get finds persisted pipelines by name with *', async () => {
    for (const name of ['alpha', 'beta']) {
      await http(server.url, `/api/v3/pipeline:global/app/ops/pipeline/${name}`, {
        auth: server.adminAuth,
        method: 'PUT',
        type: 'application/yaml',
        body: 'pipeline:\n  - log: hi\n',
      });
    }
    const one = await get('/api/v3/command/pipeline.get?name=al*');
    expect(one.json.map((p: { key: string }) => p.key)).toEqual(['global/app/ops/pipeline/alpha']);
    const all = await get('/api/v3/command/pipeline.get');
    expect(all.json).toHaveLength(2);
  });

  it('pipeline.schema.get and pipe.schema answer without credentials', async () => {
    for (const name of ['pipeline.schema.get', 'pipe.schema']) {
      const schema = await http(server.url, `/api/v3/command/${name}`);
      expect(schema.status).toBe(200);
      expect(schema.json.$schema).toContain('json-schema.org');
    }
    const one = await http(server.url, '/api/v3/command/pipe.schema?pipe=property.list');
    expect(one.json.title).toBe('property.list');
    expect(Object.keys(one.json.properties)).toContain('offset');
  });
});
