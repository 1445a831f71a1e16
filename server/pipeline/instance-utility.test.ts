import { afterAll, beforeAll, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_PROFILES: 'test, dev' } });
});
afterAll(() => server.close());

it('exposes the profiles, so a setup pipeline with runWhen skips itself in tests', async () => {
  const body = `headers:\n  runWhen: "#{not @instance.profiles().contains('test')}"\nbody: skipped\npipeline:\n  - set.body: ran\n`;
  const skipped = await http(server.url, '/api/v3/pipeline', {
    body,
    type: 'application/yaml',
    auth: server.adminAuth,
  });
  expect(skipped.text).toBe('skipped');
  const profiles = await http(server.url, '/api/v3/pipeline', {
    body: 'pipeline:\n  - set.body: "#{@instance.profiles()}"\n',
    type: 'application/yaml',
    auth: server.adminAuth,
  });
  expect(profiles.json).toEqual(['test', 'dev']);
});
