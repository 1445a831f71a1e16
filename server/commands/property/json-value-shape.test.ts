/**
 * One shape for a JSON value, whichever way it is read (docs/property-store.md, "JSON values"): the property
 * record (`property.get`, `property.list`, `@property.get`) carries the value as stored, text; the value
 * readers (`property.value.get`, `@property.value`, `@property.values`) give it parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const put = await http(server.url, '/api/v3/pipeline', {
    body: 'pipeline:\n  - property.schema.put:\n      key: global/shape/doc\n      value: {a: 1, list: [true]}\n',
    type: 'application/yaml',
    auth: server.adminAuth,
  });
  expect(put.status).toBe(200);
});
afterAll(() => server.close());

const STORED = '{"a":1,"list":[true]}';
const PARSED = { a: 1, list: [true] };

const call = (name: string, params: Record<string, string>) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, { auth: server.adminAuth });

const evaluate = async (expression: string) => {
  const answer = await http(server.url, '/api/v3/pipeline', {
    // Inside an object, so a text answer stays text (a body that is text alone is sent as it is).
    body: `pipeline:\n  - set.body:\n      value:\n        v: "#{${expression}}"\n`,
    type: 'application/yaml',
    auth: server.adminAuth,
  });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { v: unknown }).v;
};

describe('a JSON value has one shape per kind of reader', () => {
  it('the property record carries the stored text: property.get, property.list, @property.get', async () => {
    const got = await call('property.get', { key: 'global/shape/doc' });
    expect(got.json).toMatchObject({ type: 'application/json', value: STORED });
    const listed = await call('property.list', { pattern: 'global/shape/*' });
    expect(listed.json).toEqual([expect.objectContaining({ key: 'global/shape/doc', value: STORED })]);
    expect(await evaluate("@property.get('global/shape/doc').value")).toBe(STORED);
  });

  it('the value readers give it parsed: property.value.get, @property.value, @property.values', async () => {
    expect((await call('property.value.get', { key: 'global/shape/doc' })).json).toEqual(PARSED);
    expect(await evaluate("@property.value('global/shape/doc')")).toEqual(PARSED);
    expect(await evaluate("@property.values('global/shape/*')")).toEqual([PARSED]);
    expect(await evaluate("@property.value('global/shape/doc#a')")).toBe(1);
  });
});
