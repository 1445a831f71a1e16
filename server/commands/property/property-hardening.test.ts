// Hostile and failing writes over HTTP, in both forms: size limits, compare-and-swap, atomic moves, schema
// errors, normalisation that cannot be bypassed — and none of them leaves a half write or emits an event.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PipeworkEvent } from '../../events/event-bus';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf } from '../../testing/command-forms';

let server: TestServer;
let ann: string;
let benUuid: string;
beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  benUuid = (await iam.createUser({ username: 'ben', password: 'ben-pw' })).uuid;
  ann = server.basicAuth('ann', 'ann-pw');
});
afterAll(() => server.close());

type Params = Record<string, unknown>;
const get = (name: string, params: Params, auth = server.adminAuth) =>
  callCommand('GET', server.url, name, params, auth);
const pipe = (name: string, params: Params, auth = server.adminAuth) =>
  callCommand('pipeline', server.url, name, params, auth);
const forms = [
  ['GET', get],
  ['pipeline', pipe],
] as const;

let events: PipeworkEvent[] = [];
let unsubscribe: () => void;
beforeEach(async () => {
  await server.services.events.idle();
  events = [];
  unsubscribe = server.services.events.subscribe((e) => void events.push(e));
});
afterEach(() => unsubscribe());
/** The events published since the test began, once the bus has delivered them. */
async function published(): Promise<string[]> {
  await server.services.events.idle();
  return events.map((e) => e.eventKey);
}
const read = async (key: string) => (await get('property.get', { key })).json;

/** A pipeline that makes an 18 MB list (18 references to one 1 MB string) and stores it as `param`. */
function hugePipeline(key: string, param: 'value' | 'defaultValue'): string {
  const list = Array.from({ length: 18 }, () => 'body').join(', ');
  const store =
    param === 'value'
      ? `  - set.body:\n      value: "#{ {${list}} }"\n  - property.schema.put:\n      key: ${key}\n`
      : `  - property.schema.put:\n      key: ${key}\n      value: ok\n      defaultValue: "#{ {${list}} }"\n`;
  return `pipeline:\n  - set.body:\n      value: "#{ 'x' * 1000000 }"\n${store}`;
}

describe('values too large for a property', () => {
  it.each(['value', 'defaultValue'] as const)(
    'an 18 MB %s made in a pipeline is PAYLOAD_TOO_LARGE; nothing is written, nothing emitted',
    async (param) => {
      const key = `global/huge/${param}`;
      const response = await http(server.url, '/api/v3/pipeline', {
        auth: server.adminAuth,
        type: 'application/yaml',
        body: hugePipeline(key, param),
      });
      expect([response.status, codeOf(response)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      expect(response.json.value).toMatchObject({ parameter: param });
      expect((await get('property.exists', { key })).json).toBe(false);
      expect(await published()).toEqual([]);
    },
  );

  it('a 20 MB body is PAYLOAD_TOO_LARGE, for a create and for a put over an existing value', async () => {
    await get('property.schema.put', { key: 'global/huge/b', value: 'small' });
    await server.services.events.idle();
    events = [];
    const body = new Uint8Array(20 * 1024 * 1024).fill(65);
    for (const name of ['property.schema.put', 'property.put']) {
      const response = await http(server.url, `/api/v3/command/${name}?key=global/huge/b`, {
        auth: server.adminAuth,
        type: 'application/octet-stream',
        body,
      });
      expect([name, response.status, codeOf(response)]).toEqual([name, 413, 'PAYLOAD_TOO_LARGE']);
    }
    expect(await read('global/huge/b')).toMatchObject({ value: 'small', version: 1 });
    expect(await published()).toEqual([]);
  });
});

describe.each(forms)('failed writes change nothing and emit nothing (%s form)', (form, call) => {
  const base = `global/fail-${form}`;

  it('compare-and-swap with a wrong version is CONFLICT', async () => {
    await call('property.schema.put', { key: `${base}/cas`, value: 'one' });
    await call('property.put', { key: `${base}/cas`, value: 'two' });
    await server.services.events.idle();
    events = [];
    const response = await call('property.put', { key: `${base}/cas`, value: 'three', version: 1 });
    expect([response.status, codeOf(response)]).toEqual([409, 'CONFLICT']);
    expect(response.json.value).toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect(await read(`${base}/cas`)).toMatchObject({ value: 'two', version: 2 });
    expect(await published()).toEqual([]);
    const ok = await call('property.put', { key: `${base}/cas`, value: 'three', version: 2 });
    expect(ok.json).toMatchObject({ value: 'three', version: 3 });
  });

  it('a move onto a taken key leaves both; a move is one step (uuid kept, old key gone)', async () => {
    await call('property.schema.put', { key: `${base}/m/a`, value: 'A' });
    await call('property.schema.put', { key: `${base}/m/b`, value: 'B' });
    const a = await read(`${base}/m/a`);
    await server.services.events.idle();
    events = [];
    const taken = await call('property.move', { key: `${base}/m/a`, to: `${base}/m/b` });
    expect([taken.status, codeOf(taken)]).toEqual([409, 'PROPERTY_EXISTS']);
    expect(await read(`${base}/m/a`)).toEqual(a);
    expect((await read(`${base}/m/b`)).value).toBe('B');
    expect(await published()).toEqual([]);
    const moved = await call('property.move', { key: `${base}/m/a`, to: `${base}/m/c` });
    expect(moved.json).toMatchObject({ key: `${base}/m/c`, uuid: a.uuid, value: 'A' });
    expect((await call('property.exists', { key: `${base}/m/a` })).json).toBe(false);
    expect(await published()).toEqual(['property.deleted', 'property.created']);
  });

  it.each([
    ['another user’s folder', () => `user/${benUuid}/taken`],
    ['a reserved app', () => 'global/app/delivery/taken'],
  ])('a copy or move into %s is FORBIDDEN and the source stays', async (_name, target) => {
    await call('property.schema.put', { key: `user/${await annUuid()}/cm-${form}`, value: 'mine' }, ann);
    await server.services.events.idle();
    events = [];
    for (const name of ['property.copy', 'property.move']) {
      const response = await call(name, { key: `user/${await annUuid()}/cm-${form}`, to: target() }, ann);
      expect([name, response.status, codeOf(response)]).toEqual([name, 403, 'FORBIDDEN']);
    }
    expect((await read(`user/${await annUuid()}/cm-${form}`)).value).toBe('mine');
    expect((await call('property.exists', { key: target() })).json).toBe(false);
    expect(await published()).toEqual([]);
  });

  it('an object instance that breaks its schema names the failing field', async () => {
    const app = `global/app/shop-${form}/object/order/v1`;
    await call('property.schema.put', {
      key: `${app}/schema`,
      value: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] },
    });
    await server.services.events.idle();
    events = [];
    const wrong = await call('property.schema.put', { key: `${app}/instance/i1`, value: { qty: 'many' } });
    expect([wrong.status, codeOf(wrong)]).toEqual([400, 'PARAM_INVALID']);
    expect(wrong.json.value).toMatchObject({ instancePath: '/qty', schemaKey: `${app}/schema` });
    expect(wrong.json.value.message).toContain('/qty');
    const missing = await call('property.schema.put', { key: `${app}/instance/i2`, value: {} });
    expect(missing.json.value.message).toContain("'qty'");
    expect((await call('property.keys', { pattern: `${app}/instance/*` })).json).toEqual([]);
    expect(await published()).toEqual([]);
  });

  it('a delete by filter that reaches a reserved app deletes nothing', async () => {
    await server.services.properties.store.save(
      { key: 'global/app/sop/config', value: 'built-in' },
      { ifExists: 'skip' },
    );
    await call('property.schema.put', { key: 'global/app/sop-neighbour/x', value: 'x' });
    await server.services.events.idle();
    events = [];
    const response = await call('property.delete', { filter: 'global/app/so*/**' });
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
    expect((await call('property.exists', { key: 'global/app/sop-neighbour/x' })).json).toBe(true);
    expect(await published()).toEqual([]);
  });
});

let annUuidValue = '';
async function annUuid(): Promise<string> {
  annUuidValue ||= (await server.services.iam.principalByUsername('ann'))!.uuid;
  return annUuidValue;
}

describe.each(forms)('key normalisation cannot be bypassed (%s form)', (_form, call) => {
  it.each([
    ['a trailing slash', 'global/norm/a/'],
    ['a double slash', 'global/norm//a'],
    ['two leading slashes', '//global/norm/a'],
    ['a backslash', 'global\\norm\\a'],
    ['a dot segment', 'global/norm/./a'],
    ['a fullwidth solidus', 'global/norm\uff0fa'],
    ['a fullwidth letter', 'global/norm/\uff41'],
    ['a one-dot leader for dot-dot', 'global/norm/\u2024\u2024/a'],
    ['percent-encoding', 'global/norm/%61'],
    ['a space', 'global/norm/a b'],
    ['a newline', 'global/norm/a\nb'],
    ['upper-case root', 'Global/norm/a'],
  ])('%s is KEY_INVALID for keys, patterns and folders', async (name, key) => {
    const calls: [string, Params][] = [
      ['property.schema.put', { key, value: 'x' }],
      ['property.get', { key }],
      ['property.copy', { key: 'global/norm-src', to: key }],
      ['property.list', { pattern: key }],
    ];
    // A folder for browsing may end in `/` (`a/b/` is `a/b`); everything else holds for folders too.
    if (name !== 'a trailing slash') calls.push(['property.keys.children', { pattern: key }]);
    for (const [name, params] of calls) {
      const response = await call(name, params);
      expect([name, response.status, codeOf(response)]).toEqual([name, 400, 'KEY_INVALID']);
    }
  });
});
