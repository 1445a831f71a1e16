// Time to live over HTTP: an expired property is invisible to every read at once, before any cleanup runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDb } from '../../db/server-database';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (name: string, params: Record<string, unknown>) =>
  callCommand('GET', server.url, name, params, server.adminAuth);
const pipe = (name: string, params: Record<string, unknown>) =>
  callCommand('pipeline', server.url, name, params, server.adminAuth);
const forms = [
  ['GET', get],
  ['pipeline', pipe],
] as const;

/** Makes the property's time to live run out now, as if its minutes had passed (the cleanup job is not run). */
function expire(key: string): void {
  const changed = sqliteDb(server.services.database)
    .prepare('UPDATE property SET expires_at = created WHERE key = ?')
    .run(key).changes;
  expect(changed).toBe(1);
}

describe.each(forms)('an expired property (%s form)', (form, call) => {
  const base = `global/ttl-${form}`;
  const key = `${base}/dir/gone`;

  beforeAll(async () => {
    for (const k of [key, `${base}/dir/stays`]) {
      const created = await call('property.schema.put', {
        key: k,
        value: '"v"',
        type: 'application/json',
        ttl: 5,
      });
      expect(created.status).toBe(200);
    }
    await call('property.schema.put', { key: `${base}/only/gone`, value: 'x', ttl: 5 });
    expire(key);
    expire(`${base}/only/gone`);
  });

  it('is not found by property.get and property.value.get', async () => {
    for (const name of ['property.get', 'property.value.get']) {
      const response = await call(name, { key });
      expect([response.status, codeOf(response)]).toEqual([404, 'PROPERTY_NOT_FOUND']);
    }
  });

  it('does not exist', async () => {
    expect((await call('property.exists', { key })).json).toBe(false);
  });

  it('is not listed, not among the keys, not a child, and its emptied folder disappears', async () => {
    const listed = (await call('property.list', { pattern: `${base}/**` })).json as { key: string }[];
    expect(listed.map((p) => p.key)).toEqual([`${base}/dir/stays`]);
    expect((await call('property.keys', { pattern: `${base}/**` })).json).toEqual([`${base}/dir/stays`]);
    expect((await call('property.keys.children', { pattern: `${base}/dir` })).json).toEqual([
      `${base}/dir/stays`,
    ]);
    expect((await call('property.keys.children', { pattern: base })).json).toEqual([`${base}/dir/`]);
  });

  it('cannot be changed, copied or moved', async () => {
    for (const [name, params] of [
      ['property.put', { key, value: 'x' }],
      ['property.copy', { key, to: `${base}/copy` }],
      ['property.move', { key, to: `${base}/moved` }],
      ['property.delete', { key }],
      ['property.attachment.list', { key }],
    ] as const) {
      expect([name, codeOf(await call(name, params))]).toEqual([name, 'PROPERTY_NOT_FOUND']);
    }
  });

  it('lets a create take its key anew', async () => {
    const again = await call('property.schema.put', { key, value: 'new', existStrategy: 'error' });
    expect(again.json).toMatchObject({ result: 'create', property: { value: 'new', version: 1 } });
    expire(key);
  });
});

describe('@property and expired properties', () => {
  it('value, lazy, exists, get and values see nothing of them', async () => {
    const key = 'global/ttl-pel/gone';
    await get('property.schema.put', { key, value: 'old', ttl: '5' });
    await get('property.schema.put', { key: 'global/ttl-pel/live', value: 'live' });
    expire(key);
    const yaml = `pipeline:
  - set.body:
      value: "#{@property.lazy('${key}')}|#{@property.exists('${key}')}|#{@property.get('${key}')}|#{@property.values('global/ttl-pel/*')}"
`;
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: yaml,
    });
    expect(response.text).toBe('|false||["live"]');
    const strict = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: `pipeline:\n  - set.body:\n      value: "#{@property.value('${key}')}"\n`,
    });
    expect(strict.status).toBeGreaterThanOrEqual(400);
  });

  it('the cleanup job deletes them later and reports each as property.deleted', async () => {
    const seen: string[] = [];
    const off = server.services.events.subscribe((e) => {
      const origin = (e.payload as { origin?: { key: string } | null }).origin;
      if (e.eventKey === 'property.deleted' && origin) seen.push(origin.key);
    });
    await get('property.schema.put', { key: 'global/ttl-job/a', value: 'x', ttl: '1' });
    expire('global/ttl-job/a');
    expect(await server.services.propertyJobs.ttlCleanup!.runOnce()).toBeGreaterThanOrEqual(1);
    await server.services.events.idle();
    off();
    expect(seen).toContain('global/ttl-job/a');
    const row = sqliteDb(server.services.database)
      .prepare("SELECT 1 FROM property WHERE key = 'global/ttl-job/a'")
      .get();
    expect(row).toBeUndefined();
  });
});
