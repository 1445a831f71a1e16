import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

let server: TestServer;
let ann: string; // tenant acme
let cy: string; // tenant acme
let ben: string; // tenant globex

beforeAll(async () => {
  server = await startTestServer({
    env: { PIPEWORK_CACHE_MAX_ENTRIES: '20', PIPEWORK_CACHE_MAX_BYTES: '100000' },
  });
  const { iam } = server.services;
  await iam.tenants.create('acme');
  await iam.tenants.create('globex');
  for (const [username, tenant] of [
    ['ann', 'acme'],
    ['cy', 'acme'],
    ['ben', 'globex'],
  ]) {
    await iam.createUser({
      username: username!,
      password: `${username}-pw`,
      roles: ['ROLE_DEVELOPER'],
      tenants: [tenant!],
    });
  }
  ann = server.basicAuth('ann', 'ann-pw');
  cy = server.basicAuth('cy', 'cy-pw');
  ben = server.basicAuth('ben', 'ben-pw');
});
afterAll(() => server.close());

const call = (form: CommandForm, name: string, params: Record<string, unknown>, auth = ann) =>
  callCommand(form, server.url, name, params, auth);
const pipe = (yaml: string, auth = ann): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });

describe('cache commands', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'put, has, get, get with remove, remove (%s form)',
    async (form) => {
      const key = `k-${form}`;
      expect((await call(form, 'cache.put', { key, value: 'v1' })).status).toBeLessThan(300);
      expect((await call(form, 'cache.has', { key })).json).toBe(true);
      expect((await call(form, 'cache.get', { key })).text).toBe('v1');
      expect((await call(form, 'cache.get', { key, remove: true })).text).toBe('v1');
      expect((await call(form, 'cache.has', { key })).json).toBe(false);
      expect((await call(form, 'cache.get', { key })).status).toBe(200);
      await call(form, 'cache.put', { key, value: 'v2' });
      expect((await call(form, 'cache.remove', { key })).json).toBe(true);
      expect((await call(form, 'cache.remove', { key })).json).toBe(false);
    },
  );

  it('keeps the body by default, as JSON, and gives back a copy', async () => {
    const response = await pipe(
      'pipeline:\n  - set.body: {value: {rates: [1, 2]}}\n  - cache.put: {key: rates, timeToLive: 500}\n' +
        '  - set.var: {key: mine, value: "#{body}"}\n  - cache.get: rates\n',
    );
    expect(response.json).toEqual({ rates: [1, 2] });
    expect((await call('GET', 'cache.get', { key: 'rates' })).json).toEqual({ rates: [1, 2] });
  });

  it('keeps files as files', async () => {
    await pipe('pipeline:\n  - pdf.create\n  - cache.put: doc\n');
    const doc = await fetch(`${server.url}/api/v3/command/cache.get?key=doc`, {
      headers: { authorization: ann },
    });
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode((await doc.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it('keeps tenants apart', async () => {
    await call('GET', 'cache.put', { key: 'tenant-secret', value: 'acme only' }, ann);
    expect((await call('GET', 'cache.get', { key: 'tenant-secret' }, cy)).text).toBe('acme only');
    expect((await call('GET', 'cache.has', { key: 'tenant-secret' }, ben)).json).toBe(false);
    expect((await call('GET', 'cache.remove', { key: 'tenant-secret' }, ben)).json).toBe(false);
    expect((await call('GET', 'cache.clear', { all: true }, ben)).json).toEqual({ removed: 0 });
    expect((await call('GET', 'cache.has', { key: 'tenant-secret' }, cy)).json).toBe(true);
  });

  it('filled past its bound, keeps the newest entries and stays at the bound', async () => {
    for (let i = 0; i < 60; i++)
      await call('GET', 'cache.put', { key: `fill-${i}`, value: `value ${i}` }, ben);
    const present = [];
    for (let i = 0; i < 60; i++)
      if ((await call('GET', 'cache.has', { key: `fill-${i}` }, ben)).json) present.push(i);
    expect(present.length).toBeLessThanOrEqual(20);
    expect(present).toContain(59);
    expect(present).not.toContain(0);
    const tooBig = await pipe(`pipeline:\n  - cache.put: {key: big, value: "#{'x'.repeat(60000)}"}\n`, ben);
    expect(codeOf(tooBig)).toBe('PAYLOAD_TOO_LARGE');
  });

  it('clear removes one entry with key, all with all: true', async () => {
    await call('GET', 'cache.put', { key: 'c1', value: '1' }, cy);
    await call('GET', 'cache.put', { key: 'c2', value: '2' }, cy);
    expect((await call('GET', 'cache.clear', { key: 'c1' }, cy)).json).toEqual({ removed: 1 });
    expect((await call('GET', 'cache.clear', {}, cy)).json).toEqual({ removed: 0 }); // nothing expired
    expect((await call('GET', 'cache.clear', { all: true }, cy)).json.removed).toBeGreaterThanOrEqual(1);
    expect((await call('GET', 'cache.has', { key: 'c2' }, cy)).json).toBe(false);
  });

  it.each([{}, { key: '' }, { key: 'k', timeToLive: 'soon' }])('refuses %j', async (params) => {
    expect(codeOf(await call('GET', 'cache.put', params))).toBe('PARAM_INVALID');
  });
});
