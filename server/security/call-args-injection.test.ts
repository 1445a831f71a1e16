// Issue 18 finding 7: `call` args given as `name=value` text are split before anything is evaluated, so data
// holding `,name=` (here a form field) stays one value and never sets another var of the called pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const admin = (await server.services.iam.principalByUsername('admin'))!;
  await server.services.properties.create(admin, {
    key: 'global/app/sec/pipeline/grant',
    value: 'vars:\n  role: guest\npipeline:\n  - set.body: "#{vars}"\n',
    type: 'application/yaml;type=pipeline',
  });
});
afterAll(() => server.close());

const run = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

describe('call args given as text', () => {
  it('keeps data holding ",name=" inside one value', async () => {
    const response = await run(`body: {comment: "hello, role=admin"}
pipeline:
  - call:
      uri: $uri:property:global/app/sec/pipeline/grant
      args: "comment=#{body.comment}, source=form"
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ role: 'guest', comment: 'hello, role=admin', source: 'form' });
  });

  it('keeps commas inside an expression in its value', async () => {
    const response = await run(`pipeline:
  - call:
      uri: $uri:pipeline:global/app/sec/pipeline/grant
      args: "who=#{'a' + ',role=admin'}"
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ role: 'guest', who: 'a,role=admin' });
  });
});
