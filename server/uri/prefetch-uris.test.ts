// Only the URIs given to a resolving utility (`@resolve.uri('...')`, ...) are fetched before a step: text that
// merely looks like an address (a URL template for http.post, a message) never makes the server call out.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let upstream: Server;
let upstreamUrl = '';
let calls = 0;

beforeAll(async () => {
  upstream = createServer((_req, res) => {
    calls++;
    res.setHeader('content-type', 'application/json');
    res.end('{"from":"upstream"}');
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startTestServer({ env: { PIPEWORK_HTTP_ALLOW_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await server.close();
  await new Promise((done) => upstream.close(done));
});

const run = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

describe('URIs fetched before a step', () => {
  it('fetches the address given to @resolve.uri', async () => {
    calls = 0;
    const response = await run(`pipeline:\n  - set.body: "#{@resolve.uri('${upstreamUrl}/x')}"\n`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ from: 'upstream' });
    expect(calls).toBe(1);
  });

  it('never calls an address that is only text inside an expression', async () => {
    calls = 0;
    const response = await run(
      `pipeline:\n  - set.body: "#{'see ' + '${upstreamUrl}/y'}"\n  - log: "#{\\"${upstreamUrl}/z\\"}"\n`,
    );
    expect(response.status).toBe(200);
    expect(response.text).toBe(`see ${upstreamUrl}/y`);
    expect(calls).toBe(0);
  });
});
