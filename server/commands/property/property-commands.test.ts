import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Params = Record<string, string | number | boolean | object | null>;

/** GET /api/v3/command/<name>?params (values as text). */
function get(
  name: string,
  params: Params = {},
  auth = server.adminAuth,
  separator = '/',
): Promise<HttpResponse> {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
  );
  return http(server.url, `/api/v3/command${separator}${name}?${query}`, { auth });
}

/** POST /api/v3/pipeline with one command in JSON form. */
function pipe(
  name: string,
  params: Params = {},
  auth = server.adminAuth,
  body?: unknown,
): Promise<HttpResponse> {
  const script = { pipeline: [{ [name]: params }], ...(body === undefined ? {} : { body }) };
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify(script),
  });
}

const forms = [
  ['GET', get],
  ['pipeline', pipe],
] as const;

function codeOf(response: HttpResponse): string | undefined {
  return response.json?.value?.code;
}

let n = 0;
/** A fresh key per test so the two forms never collide. */
const fresh = (prefix = 'global/t') => `${prefix}/k${++n}`;

beforeEach(async () => {
  await server.services.properties.events.idle();
});

describe.each(forms)('property commands, %s form', (_form, call) => {
  it('property.schema.put creates, updates, skips and refuses with existStrategy', async () => {
    const key = fresh();
    const created = await call('property.schema.put', { key, value: 'v1', type: 'text/x-test', ttl: 5 });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      result: 'create',
      property: {
        key,
        value: 'v1',
        type: 'text/x-test',
        timeToLive: 5,
        version: 1,
        updated: null,
        defaultValue: null,
      },
    });
    expect((await call('property.schema.put', { key, value: 'v2' })).json).toMatchObject({
      result: 'update',
      property: { value: 'v2', type: 'text/x-test', version: 2 },
    });
    expect((await call('property.schema.put', { key, value: 'v3', existStrategy: 'skip' })).json.result).toBe(
      'skip',
    );
    const refused = await call('property.schema.put', { key, value: 'v4', existStrategy: 'error' });
    expect([refused.status, codeOf(refused)]).toEqual([409, 'PROPERTY_EXISTS']);
    const timeToLive = await call('property.schema.put', {
      key: fresh(),
      value: 'x',
      timeToLive: 7,
      defaultValue: 'd',
    });
    expect(timeToLive.json.property).toMatchObject({ timeToLive: 7, defaultValue: 'd' });
  });

  it('property.put sets the value of an existing property, with compare-and-swap', async () => {
    const key = fresh();
    expect(codeOf(await call('property.put', { key, value: 'x' }))).toBe('PROPERTY_NOT_FOUND');
    await call('property.schema.put', { key, value: '1' });
    const put = await call('property.put', { key, value: '2', version: 1 });
    expect(put.json).toMatchObject({ key, value: '2', version: 2 });
    const conflict = await call('property.put', { key, value: '3', version: 1 });
    expect([conflict.status, codeOf(conflict)]).toEqual([409, 'CONFLICT']);
  });

  it('property.get, property.value.get and property.exists read it back', async () => {
    const key = fresh();
    await call('property.schema.put', { key, value: '{"a":[1,2]}', type: 'application/json' });
    expect((await call('property.get', { key })).json).toMatchObject({
      key,
      value: '{"a":[1,2]}',
      type: 'application/json',
    });
    expect((await call('property.value.get', { key })).json).toEqual({ a: [1, 2] });
    expect((await call('property.exists', { key })).json).toBe(true);
    expect((await call('property.exists', { key: fresh() })).json).toBe(false);
    const missing = await call('property.get', { key: fresh() });
    expect([missing.status, codeOf(missing)]).toEqual([404, 'PROPERTY_NOT_FOUND']);
    expect(codeOf(await call('property.value.get', { key: fresh() }))).toBe('PROPERTY_NOT_FOUND');
  });

  it('property.list, property.keys and property.keys.children answer wildcards', async () => {
    const base = fresh('global/list');
    for (const k of ['a/x', 'a/y/z', 'b'])
      await call('property.schema.put', { key: `${base}/${k}`, value: k });
    const listed = await call('property.list', { filter: `${base}/**` });
    expect(listed.json.map((p: { key: string }) => p.key)).toEqual([
      `${base}/a/x`,
      `${base}/a/y/z`,
      `${base}/b`,
    ]);
    expect(Object.keys(listed.json[0]).sort()).toEqual(
      [
        'created',
        'defaultValue',
        'key',
        'path',
        'timeToLive',
        'type',
        'updated',
        'uuid',
        'value',
        'version',
      ].sort(),
    );
    expect(
      (await call('property.list', { pattern: `${base}/*` })).json.map((p: { key: string }) => p.key),
    ).toEqual([`${base}/b`]);
    expect((await call('property.list', { pattern: `${base}/**`, limit: 1 })).json).toHaveLength(1);
    expect((await call('property.keys', { pattern: `${base}/*/x` })).json).toEqual([`${base}/a/x`]);
    expect((await call('property.path.list', { pattern: `${base}/a/**` })).json).toEqual([
      `${base}/a/x`,
      `${base}/a/y/z`,
    ]);
    expect((await call('property.keys.children', { pattern: `${base}/` })).json).toEqual([
      `${base}/a/`,
      `${base}/b`,
    ]);
    expect((await call('property.path.children', { pattern: `${base}/a/*` })).json).toEqual([
      `${base}/a/x`,
      `${base}/a/y/`,
    ]);
  });

  it('property.copy and property.move', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()];
    await call('property.schema.put', { key: a, value: 'A' });
    expect((await call('property.copy', { key: a, to: b })).json).toMatchObject({ key: b, value: 'A' });
    const moved = await call('property.move', { key: a, to: c });
    expect(moved.json).toMatchObject({ key: c, value: 'A', version: 2 });
    const taken = await call('property.move', { key: c, to: b });
    expect([taken.status, codeOf(taken)]).toEqual([409, 'PROPERTY_EXISTS']);
    expect(codeOf(await call('property.copy', { key: a, to: b }))).toBe('PROPERTY_NOT_FOUND');
  });

  it('property.delete by key or filter, property.schema.delete idempotently', async () => {
    const base = fresh('global/del');
    for (const k of ['1', '2', 'sub/3']) await call('property.schema.put', { key: `${base}/${k}`, value: k });
    expect((await call('property.delete', { key: `${base}/1` })).json).toEqual([`${base}/1`]);
    expect(codeOf(await call('property.delete', { key: `${base}/1` }))).toBe('PROPERTY_NOT_FOUND');
    expect((await call('property.delete', { filter: `${base}/**` })).json).toEqual([
      `${base}/2`,
      `${base}/sub/3`,
    ]);
    await call('property.schema.put', { key: `${base}/4`, value: '4' });
    expect((await call('property.schema.delete', { key: `${base}/4` })).json).toMatchObject({
      key: `${base}/4`,
    });
    expect((await call('property.schema.delete', { key: `${base}/4` })).status).toBe(200);
    expect(codeOf(await call('property.delete', {}))).toBe('PARAM_INVALID');
    expect(codeOf(await call('property.delete', { key: `${base}/x`, filter: `${base}/**` }))).toBe(
      'PARAM_INVALID',
    );
  });

  it.each<[string, Params, string, number]>([
    ['a missing key', {}, 'PARAM_INVALID', 400],
    ['an unknown parameter', { key: 'global/a', bogus: 1 }, 'PARAM_INVALID', 400],
    ['a ttl that is no number', { key: 'global/a', ttl: 'soon' }, 'PARAM_INVALID', 400],
    ['a negative ttl', { key: 'global/a', ttl: -1 }, 'PARAM_INVALID', 400],
    ['an unknown existStrategy', { key: 'global/a', existStrategy: 'merge' }, 'PARAM_INVALID', 400],
    [
      'a type that is no mime type',
      { key: 'global/a', value: 'x', type: 'not a type' },
      'PARAM_INVALID',
      400,
    ],
    ['a key with ..', { key: 'global/../user/x', value: 'x' }, 'KEY_INVALID', 400],
    ['a key with %2e%2e', { key: 'global/%2e%2e/x', value: 'x' }, 'KEY_INVALID', 400],
    ['a key with an empty segment', { key: 'global//x', value: 'x' }, 'KEY_INVALID', 400],
    ['a key with NUL', { key: 'global/a\u0000b', value: 'x' }, 'KEY_INVALID', 400],
    ['a 5,000-character key', { key: `global/${'a'.repeat(5000)}`, value: 'x' }, 'KEY_INVALID', 400],
    ['a key outside the four roots', { key: 'etc/passwd', value: 'x' }, 'KEY_INVALID', 400],
    ['a reserved app', { key: 'global/app/delivery/form/x', value: 'x' }, 'FORBIDDEN', 403],
  ])('property.schema.put refuses %s', async (_name, params, code, status) => {
    const response = await call('property.schema.put', params);
    expect([response.status, codeOf(response)]).toEqual([status, code]);
    expect(response.json.status).toBe('error');
  });

  it.each([
    ['dot-dot', 'global/../**'],
    ['an empty segment', 'global//**'],
    ['an unknown root', 'etc/**'],
    ['5,000 characters', `global/${'*'.repeat(5000)}`],
    ['** inside a segment', 'global/a**'],
  ])('property.list refuses a pattern with %s (KEY_INVALID)', async (_name, pattern) => {
    const response = await call('property.list', { filter: pattern });
    expect([response.status, codeOf(response)]).toEqual([400, 'KEY_INVALID']);
  });
});

describe('forms and values', () => {
  it('answers the colon form of the command path', async () => {
    const key = fresh();
    await get('property.schema.put', { key, value: 'colon' }, server.adminAuth, ':');
    expect((await get('property.list', { filter: key }, server.adminAuth, ':')).json[0].value).toBe('colon');
  });

  it('stores a JSON value given in a pipeline as JSON text with type application/json', async () => {
    const key = fresh();
    const response = await pipe('property.schema.put', { key, value: { a: 1, b: [true] } });
    expect(response.json.property).toMatchObject({ value: '{"a":1,"b":[true]}', type: 'application/json' });
    expect((await pipe('property.value.get', { key })).json).toEqual({ a: 1, b: [true] });
  });

  it('evaluates expressions in value unless evalValue is false', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()];
    expect((await pipe('property.schema.put', { key: a, value: '#{1 + 1}' })).json.property).toMatchObject({
      value: '2',
      type: 'application/json',
    });
    const kept = await pipe('property.schema.put', {
      key: b,
      value: 'pipeline:\n  - log: "#{body.x}"\n',
      evalValue: false,
    });
    expect(kept.json.property.value).toBe('pipeline:\n  - log: "#{body.x}"\n');
    const nested = await pipe('property.schema.put', {
      key: c,
      value: { sum: '#{2 * 3}', text: 'n=#{2 * 3}' },
    });
    expect(JSON.parse(nested.json.property.value)).toEqual({ sum: 6, text: 'n=6' });
    const got = await get('property.schema.put', { key: fresh(), value: '#{1 + 1}', evalValue: 'false' });
    expect(got.json.property.value).toBe('#{1 + 1}');
  });

  it('takes the value from the body when no value parameter is given', async () => {
    const key = fresh();
    await pipe('property.schema.put', { key }, server.adminAuth, { from: 'body' });
    expect((await get('property.value.get', { key })).json).toEqual({ from: 'body' });
    const text = await http(server.url, `/api/v3/command/property.put?key=${key}`, {
      auth: server.adminAuth,
      type: 'text/plain',
      body: 'plain text',
    });
    expect(text.json).toMatchObject({ value: 'plain text', type: 'application/json' });
  });

  it('stores binary bodies as base64 and gives them back as bytes of their type', async () => {
    const key = fresh();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const created = await http(server.url, `/api/v3/command/property.schema.put?key=${key}`, {
      auth: server.adminAuth,
      type: 'application/pdf',
      body: bytes,
    });
    expect(created.json.property).toMatchObject({
      value: 'AAEC+v8=',
      type: 'application/pdf;encoding=base64',
    });
    const back = await fetch(`${server.url}/api/v3/command/property.value.get?key=${key}`, {
      headers: { authorization: server.adminAuth },
    });
    expect(back.headers.get('content-type')).toBe('application/pdf');
    expect(Array.from(new Uint8Array(await back.arrayBuffer()))).toEqual(Array.from(bytes));
  });

  it('runs a YAML pipeline that uses @property', async () => {
    const key = fresh('global/app/cfg/config');
    await pipe('property.schema.put', { key, value: { recipient: 'ops@example.com', nested: { n: 3 } } });
    const yaml = `pipeline:\n  - set.body:\n      value: "#{@property.lazy('${key}#recipient')} #{@property.value('${key}').nested.n} #{@property.exists('${key}')} #{@property.values('${key}').size()} #{@property.get('${key}').version}"\n`;
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: yaml,
    });
    expect(response.text).toBe('ops@example.com 3 true 1 1');
  });

  it('needs credentials', async () => {
    const response = await http(server.url, '/api/v3/command/property.list');
    expect([response.status, codeOf(response)]).toEqual([401, 'UNAUTHENTICATED']);
  });
});
