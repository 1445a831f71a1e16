/**
 * `@property.updateValue(key, value)` inside a running pipeline is `property.put`: the value changes, the
 * version goes up, `property.changed` reaches the bus (and event.listen pipelines), and a write the caller
 * may not make, or to a key that does not exist, fails as put fails and changes nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Property } from '../../shared/property';
import type { PipeworkEvent } from '../events/event-bus';
import { callCommand, codeOf } from '../testing/command-forms';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let ann: string;
let annUuid: string;
let ben: string;
beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  annUuid = (await iam.createUser({ username: 'ann', password: 'ann-pw' })).uuid;
  await iam.createUser({ username: 'ben', password: 'ben-pw' });
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
});
afterAll(() => server.close());

let events: PipeworkEvent[] = [];
let unsubscribe: () => void = () => {};
beforeEach(async () => {
  await server.services.events.idle();
  events = [];
  unsubscribe = server.services.events.subscribe((e) => void events.push(e));
});
afterEach(() => unsubscribe());

/** The events published since the test began, once the bus has delivered them. */
async function published(): Promise<PipeworkEvent[]> {
  await server.services.events.idle();
  return events;
}

/** Runs `set.body: <template>` as a user. */
function run(auth: string, template: string): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ 'set.body': template }] }),
  });
}

/** Creates (or overwrites) a property as the admin. */
async function create(key: string, value: unknown, type?: string): Promise<Property> {
  const r = await callCommand(
    'pipeline',
    server.url,
    'property.schema.put',
    { key, value, ...(type ? { type } : {}) },
    server.adminAuth,
  );
  expect(r.status, r.text).toBe(200);
  return r.json.property as Property;
}

async function read(key: string): Promise<Property> {
  const r = await callCommand('GET', server.url, 'property.get', { key }, server.adminAuth);
  expect(r.status, r.text).toBe(200);
  return r.json as Property;
}

describe('@property.updateValue', () => {
  it('writes the value, raises the version, and publishes property.changed as the caller', async () => {
    await create('global/uv/counter', 1);
    const before = (await published()).length;
    const r = await run(
      ann,
      "#{@property.updateValue('global/uv/counter', @property.value('global/uv/counter') + 1)}",
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json).toBe(2);

    const stored = await read('global/uv/counter');
    expect(stored).toMatchObject({ value: '2', type: 'application/json', version: 2 });
    expect(await server.services.properties.store.authorOf('global/uv/counter')).toBe(annUuid);

    const changed = (await published()).slice(before);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      eventKey: 'property.changed',
      actor: annUuid,
      payload: {
        origin: { key: 'global/uv/counter', value: '1', version: 1 },
        target: { key: 'global/uv/counter', value: '2', version: 2 },
      },
    });
  });

  it('handles values as property.put does: text keeps the type, other values become JSON', async () => {
    await create('global/uv/note', '# old', 'text/markdown');
    const text = await run(ann, "#{@property.updateValue('global/uv/note', '# new')}");
    expect(text.text).toBe('# new');
    expect(await read('global/uv/note')).toMatchObject({ value: '# new', type: 'text/markdown', version: 2 });

    const object = await run(ann, "#{@property.updateValue('global/uv/note', {'a': {1, 2}})}");
    expect(object.json).toEqual({ a: [1, 2] });
    expect(await read('global/uv/note')).toMatchObject({
      value: '{"a":[1,2]}',
      type: 'application/json',
      version: 3,
    });
  });

  it('refuses a key the caller may not write, as put does, and changes nothing', async () => {
    const key = `user/${annUuid}/note`;
    await create(key, 'ann wrote this');
    const refused = await run(ben, `#{@property.updateValue('${key}', 'ben was here')}`);
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('FORBIDDEN');
    const put = await callCommand('pipeline', server.url, 'property.put', { key, value: 'x' }, ben);
    expect([put.status, codeOf(put)]).toEqual([403, 'FORBIDDEN']);

    expect(await read(key)).toMatchObject({ value: 'ann wrote this', version: 1 });
    expect((await published()).filter((e) => e.eventKey === 'property.changed')).toEqual([]);
  });

  it('refuses a property locked to someone else with CONFLICT naming the holder, and changes nothing', async () => {
    await create('global/uv/locked', 'kept');
    const lock = await callCommand(
      'pipeline',
      server.url,
      'property.lock.put',
      { path: 'global/uv/locked', type: 'user' },
      server.adminAuth,
    );
    expect(lock.status, lock.text).toBe(200);
    const refused = await run(ann, "#{@property.updateValue('global/uv/locked', 'ann was here')}");
    expect([refused.status, codeOf(refused)]).toEqual([409, 'CONFLICT']);
    expect(refused.text).toContain("only user 'admin' may change it");
    expect(await read('global/uv/locked')).toMatchObject({ value: 'kept', version: 1 });
  });

  it('refuses a key that does not exist with PROPERTY_NOT_FOUND, as put does, and creates nothing', async () => {
    const r = await run(ann, "#{@property.updateValue('global/uv/missing', 'x')}");
    expect([r.status, codeOf(r)]).toEqual([404, 'PROPERTY_NOT_FOUND']);
    const exists = await callCommand(
      'GET',
      server.url,
      'property.exists',
      { key: 'global/uv/missing' },
      server.adminAuth,
    );
    expect(exists.json).toBe(false);
  });

  it('refuses a bad key with the contract’s codes', async () => {
    const bad = await run(ann, "#{@property.updateValue('global/../x', 'x')}");
    expect([bad.status, codeOf(bad)]).toEqual([400, 'KEY_INVALID']);
    const notText = await run(ann, '#{@property.updateValue(null, 1)}');
    expect([notText.status, codeOf(notText)]).toEqual([400, 'PEL_EVAL']);
  });

  it('validates an object instance against its schema, as put does', async () => {
    const schema = 'global/app/shop/object/item/v1/schema';
    const instance = 'global/app/shop/object/item/v1/instance/i-1';
    await create(schema, {
      type: 'object',
      properties: { qty: { type: 'integer' } },
      required: ['qty'],
    });
    await create(instance, { qty: 1 });
    const wrong = await run(ann, `#{@property.updateValue('${instance}', {'qty': 'many'})}`);
    expect([wrong.status, codeOf(wrong)]).toEqual([400, 'PARAM_INVALID']);
    expect(await read(instance)).toMatchObject({ value: '{"qty":1}', version: 1 });

    const right = await run(ann, `#{@property.updateValue('${instance}', {'qty': 5})}`);
    expect(right.json).toEqual({ qty: 5 });
    expect(await read(instance)).toMatchObject({ value: '{"qty":5}', version: 2 });
  });

  it('wakes event.listen pipelines on property.changed', async () => {
    const listener = `pipeline:
  - event.listen:
      key: property.changed
      filter: "#{body.target.key == 'global/uv/watched'}"
  - property.schema.put:
      key: "global/uv/seen/v#{body.target.version}"
      value: "#{body.target.value}"
`;
    const stored = await http(
      server.url,
      '/api/v3/command/property.schema.put?key=global/app/uv/pipeline/watch&type=application/yaml;type=pipeline',
      { auth: server.adminAuth, type: 'application/yaml', body: listener },
    );
    expect(stored.status, stored.text).toBe(200);
    await server.services.propertyJobs.ready;
    await create('global/uv/watched', 'first');

    const r = await run(ann, "#{@property.updateValue('global/uv/watched', 'second')}");
    expect(r.status, r.text).toBe(200);
    const until = Date.now() + 5000;
    let seen: HttpResponse;
    for (;;) {
      await server.services.events.idle();
      seen = await callCommand('GET', server.url, 'property.get', { key: 'global/uv/seen/v2' }, ann);
      if (seen.status === 200 || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen.status, seen.text).toBe(200);
    expect(seen.json.value).toBe('second');
  });
});
