// Values that are small in memory but enormous as text, or that refer to themselves, never crash the server.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(async () => {
  expect((await http(server.url, '/healthz')).status).toBe(200);
});

const run = (yaml: string, query = '') =>
  http(server.url, `/api/v3/pipeline${query}`, {
    body: yaml,
    type: 'application/yaml',
    auth: server.adminAuth,
  });

// 2,000 references to one 100,000-character string: 200 MB as JSON, a few hundred KB in memory.
const MANY_REFERENCES =
  'vars:\n  big: "#{@text.repeat(\'x\', 100000)}"\npipeline:\n  - set.body: "#{@list.range(0, 2000).![vars.big]}"\n';

it('answers a result too large for JSON with LIMIT_EXCEEDED', async () => {
  const response = await run(MANY_REFERENCES);
  expect(response.status).toBe(422);
  expect(response.json.value).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'response' });
});

it('logs and traces such a value without building it', async () => {
  const response = await run(`${MANY_REFERENCES}  - log\n  - set.body: done\n`, '?trace=true');
  expect(response.status).toBe(200);
  expect(response.json.body).toBe('done');
  expect(response.json.trace[1].input).toMatchObject({ $truncated: true });
});

it('refuses to store such a value as a property', async () => {
  const response = await run(
    `${MANY_REFERENCES}  - property.schema.put:\n      key: global/huge\n      value: "#{body}"\n`,
  );
  expect(response.status).toBe(413);
  expect(response.json.value.code).toBe('PAYLOAD_TOO_LARGE');
});

it('answers a result that refers to itself with LIMIT_EXCEEDED', async () => {
  const response = await run(
    'pipeline:\n  - eval: "#{vars.a = {:}}"\n  - eval: "#{vars.a.self = vars.a}"\n  - set.body: "#{vars.a}"\n',
  );
  expect(response.status).toBe(422);
  expect(response.json.value.message).toContain('refers to itself');
});
