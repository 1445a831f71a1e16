import type { Property } from '../../shared/property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEventStream, type StreamedEvent } from '../testing/event-stream';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let ann: string;
let annUuid: string;
let ben: string;
let benUuid: string;
beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  annUuid = (await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] })).uuid;
  benUuid = (await iam.createUser({ username: 'ben', password: 'ben-pw' })).uuid;
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
});
afterAll(() => server.close());

function put(key: string, value: unknown, auth = server.adminAuth): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ 'property.schema.put': { key, value } }] }),
  });
}
/** Stores a pipeline the way `pi publish` does: its text as the body, so its expressions stay unevaluated. */
function publish(key: string, yaml: string, auth = server.adminAuth): Promise<HttpResponse> {
  return http(
    server.url,
    `/api/v3/command/property.schema.put?key=${key}&type=application/yaml;type=pipeline`,
    {
      auth,
      type: 'application/yaml',
      body: yaml,
    },
  );
}
const exists = async (key: string) =>
  (await http(server.url, `/api/v3/command/property.exists?key=${key}`, { auth: server.adminAuth }))
    .json as boolean;

/** Waits until `check` holds, the event queue and listeners have settled in between. */
async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    await server.services.events.idle();
    if (await check()) return;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Opens an SSE stream and collects its events until `stop()`. */
async function follow(query: string, auth: string) {
  type Data = { eventKey: string; payload: { origin: Property | null; target: Property | null } };
  const stream = followEventStream<StreamedEvent<Data>>(`${server.url}/api/v3/events${query}`, {
    authorization: auth,
  });
  return { ...stream, response: await stream.response };
}

describe('GET /api/v3/events (Server-Sent Events)', () => {
  it('streams property events with {eventKey, payload: {origin, target}}, filtered by key and pattern', async () => {
    const stream = await follow('?key=property.*&filter=global/sse/**', server.adminAuth);
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
    await put('global/sse/a', '1');
    await put('global/sse/a', '2');
    await put('global/other/x', 'not me');
    await http(server.url, '/api/v3/command/property.delete?key=global/sse/a', { auth: server.adminAuth });
    await eventually(async () => stream.events.length >= 3);
    await stream.stop();
    expect(
      stream.events.map((e) => [
        e.event,
        e.data.payload.origin?.value ?? null,
        e.data.payload.target?.value ?? null,
      ]),
    ).toEqual([
      ['property.created', null, '1'],
      ['property.changed', '1', '2'],
      ['property.deleted', '2', null],
    ]);
    expect(Number(stream.events[1]!.id)).toBeGreaterThan(Number(stream.events[0]!.id));
  });

  it('never sends a client events about properties it may not read', async () => {
    const annStream = await follow('', ann);
    const benStream = await follow('?key=property.created', ben);
    await put(`user/${benUuid}/private`, 'secret of ben');
    await put(`user/${annUuid}/mine`, 'secret of ann');
    await eventually(async () => annStream.events.length > 0 && benStream.events.length > 0);
    await Promise.all([annStream.stop(), benStream.stop()]);
    expect(JSON.stringify(annStream.events)).not.toContain('secret of ben');
    expect(JSON.stringify(benStream.events)).not.toContain('secret of ann');
    expect(benStream.events.map((e) => e.data.payload.target?.key)).toEqual([`user/${benUuid}/private`]);
  });

  it('refuses bad parameters and anonymous callers', async () => {
    const bad = await http(server.url, '/api/v3/events?filter=global/../x', { auth: server.adminAuth });
    expect([bad.status, bad.json.value.code]).toEqual([400, 'KEY_INVALID']);
    const anonymous = await http(server.url, '/api/v3/events');
    expect(anonymous.status).toBe(401);
    const twice = await http(server.url, '/api/v3/events?key=a&key=b', { auth: server.adminAuth });
    expect([twice.status, twice.json.value.code]).toEqual([400, 'PARAM_INVALID']);
    // A misspelt filter is refused, not followed as no filter (the query is the endpoint definition's).
    const misspelt = await http(server.url, '/api/v3/events?fitler=global/**', { auth: server.adminAuth });
    expect([misspelt.status, misspelt.json.value.parameter]).toEqual([400, 'fitler']);
  });
});

describe('event.listen pipelines', () => {
  const listener = (filter: string, marker: string) => `pipeline:
  - event.listen:
      key: property.created
      filter: "${filter}"
  - property.schema.put:
      key: "${marker}/#{body.target.uuid}"
      value: "#{body.target.key}"
`;

  it('run on matching events, as the user who stored them, with the event as body', async () => {
    const stored = await publish(
      'global/app/inv/pipeline/on-create',
      listener("#{body.target.key.contains('/object/inv/v1/instance/')}", 'global/app/inv/seen'),
      ann,
    );
    expect(stored.json.property.value).toContain('#{body.target.uuid}');
    await server.services.propertyJobs.ready;
    const created = await put('global/app/inv/object/inv/v1/instance/i-1', { amount: 3 });
    const uuid = created.json.property.uuid as string;
    await eventually(() => exists(`global/app/inv/seen/${uuid}`));
    const seen = await http(server.url, `/api/v3/command/property.get?key=global/app/inv/seen/${uuid}`, {
      auth: server.adminAuth,
    });
    expect(seen.json.value).toBe('global/app/inv/object/inv/v1/instance/i-1');
    expect(await server.services.properties.store.authorOf(`global/app/inv/seen/${uuid}`)).toBe(annUuid);
  });

  it('cannot do more than their author: a write into another user’s folder is refused', async () => {
    const escalate = `pipeline:
  - event.listen:
      key: property.created
      filter: "#{body.target.key == 'global/esc/go'}"
  - property.schema.put:
      key: "user/${benUuid}/planted"
      value: planted
`;
    await publish('global/app/esc/pipeline/plant', escalate, ann);
    await publish(
      'global/app/esc/pipeline/mark',
      listener("#{body.target.key == 'global/esc/go'}", 'global/esc/seen'),
      ann,
    );
    const go = await put('global/esc/go', 'go');
    await eventually(() => exists(`global/esc/seen/${go.json.property.uuid}`));
    expect(await exists(`user/${benUuid}/planted`)).toBe(false);
    // A plain user cannot move stored code; an admin who moves it takes it over (a move is a write by the mover).
    const byBen = await http(
      server.url,
      '/api/v3/command/property.move?key=global/app/esc/pipeline/plant&to=global/app/esc2/pipeline/plant',
      { auth: ben },
    );
    expect([byBen.status, byBen.json.value.code]).toEqual([403, 'FORBIDDEN']);
    await http(
      server.url,
      '/api/v3/command/property.move?key=global/app/esc/pipeline/plant&to=global/app/esc2/pipeline/plant',
      { auth: server.adminAuth },
    );
    const admin = (await server.services.iam.principalByUsername('admin'))!;
    expect(await server.services.properties.store.authorOf('global/app/esc2/pipeline/plant')).toBe(
      admin.uuid,
    );
    await http(server.url, '/api/v3/command/property.delete?key=global/app/esc2/pipeline/plant', {
      auth: server.adminAuth,
    });
  });

  it('do not run when the filter is false', async () => {
    const other = await put('global/app/inv/object/other/v1/instance/i-2', { amount: 1 });
    await server.services.events.idle();
    expect(await exists(`global/app/inv/seen/${other.json.property.uuid}`)).toBe(false);
  });

  it('do not see events about properties their author may not read', async () => {
    const created = await put(`user/${benUuid}/app/x/object/inv/v1/instance/i-3`, { amount: 1 });
    await server.services.events.idle();
    expect(await exists(`global/app/inv/seen/${created.json.property.uuid}`)).toBe(false);
  });

  it('stop a chain of events that would trigger itself forever', async () => {
    const chain = `pipeline:
  - event.listen:
      key: property.created
      filter: "#{body.target.key.startsWith('global/chain/')}"
  - property.schema.put:
      key: "global/chain/#{body.target.uuid}"
      value: x
`;
    await publish('global/app/loop/pipeline/chain', chain);
    await put('global/chain/start', 'go');
    await server.services.events.idle();
    await new Promise((r) => setTimeout(r, 100));
    await server.services.events.idle();
    const keys = (
      await http(server.url, '/api/v3/command/property.keys?pattern=global/chain/*', {
        auth: server.adminAuth,
      })
    ).json as string[];
    expect(keys).toHaveLength(4); // the start, then one per level up to the depth limit (3)
  });

  it('are unregistered when their property is deleted', async () => {
    await http(server.url, '/api/v3/command/property.delete?key=global/app/inv/pipeline/on-create', {
      auth: server.adminAuth,
    });
    await server.services.events.idle();
    const created = await put('global/app/inv/object/inv/v1/instance/i-4', { amount: 3 });
    await server.services.events.idle();
    expect(await exists(`global/app/inv/seen/${created.json.property.uuid}`)).toBe(false);
  });

  it('pass the body on when run directly (GET form: no body, 200 empty)', async () => {
    const response = await http(server.url, '/api/v3/command/event.listen?key=property.created', {
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    const missing = await http(server.url, '/api/v3/command/event.listen', { auth: server.adminAuth });
    expect([missing.status, missing.json.value.code]).toEqual([400, 'PARAM_INVALID']);
  });

  it('pass the body on when run directly', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: 'body: {a: 1}\npipeline:\n  - event.listen:\n      key: property.created\n      filter: "#{false}"\n',
    });
    expect(response.json).toEqual({ a: 1 });
  });
});
