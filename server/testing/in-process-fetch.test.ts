import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveInProcess, type InProcessRoute } from './in-process-fetch';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const opened: { server: Server; route: InProcessRoute }[] = [];

function serve(handler: Handler) {
  const server = createServer(handler);
  const route = serveInProcess(server);
  opened.push({ server, route });
  return { server, url: route.origin };
}

afterEach(async () => {
  for (const { server, route } of opened.splice(0)) {
    route.remove();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('fetch to an in-process server', () => {
  it('is parsed by the real HTTP server, from a loopback address with a port of its own per connection', async () => {
    const { url } = serve((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          host: req.headers.host,
          address: req.socket.remoteAddress,
          port: req.socket.remotePort,
        }),
      );
    });
    expect(url).toMatch(/^http:\/\/in-process-\d+\.test$/);
    const answer = await (await fetch(`${url}/a/b?c=d`, { method: 'PUT', body: 'x' })).json();
    expect(answer).toMatchObject({
      method: 'PUT',
      url: '/a/b?c=d',
      host: new URL(url).host,
      address: '127.0.0.1',
    });
    expect(answer.port).toBeGreaterThan(0);
  });

  it('sends bodies as fetch encodes them, content-type included', async () => {
    const { url } = serve(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.end(`${req.headers['content-type']}\n${Buffer.concat(chunks).toString()}`);
    });
    const form = new FormData();
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const multipart = await (await fetch(url, { method: 'POST', body: form })).text();
    expect(multipart).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart).toContain('filename="hello.txt"');
    expect(multipart).toContain('hello');
    const urlEncoded = await (
      await fetch(url, { method: 'POST', body: new URLSearchParams({ a: '1 2' }) })
    ).text();
    expect(urlEncoded).toBe('application/x-www-form-urlencoded;charset=UTF-8\na=1+2');
  });

  it('streams a response: the first part arrives while the server still holds the rest', async () => {
    let finish: () => void = () => {};
    const { url } = serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      finish = () => res.end('last');
    });
    const response = await fetch(url);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first;');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('last');
    expect((await reader.read()).done).toBe(true);
  });

  it('moves a large body both ways intact', async () => {
    const { url } = serve(async (req, res) => {
      for await (const chunk of req) res.write(chunk);
      res.end();
    });
    const body = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 1) body[i] = (i * 31) % 251;
    const echoed = Buffer.from(await (await fetch(url, { method: 'POST', body })).arrayBuffer());
    expect(echoed.equals(body)).toBe(true);
  });

  it('closes the connection when the client aborts, and the server sees the client gone', async () => {
    const gone: Promise<unknown>[] = [];
    const { url } = serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      gone.push(once(res, 'close'));
    });
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    expect(gone).toHaveLength(1);
    await gone[0];
  });

  it('reuses a kept-alive connection for the next request', async () => {
    const ports: number[] = [];
    const { url } = serve((req, res) => {
      ports.push(req.socket.remotePort!);
      res.end('ok');
    });
    await (await fetch(url)).text();
    await new Promise((resolve) => setTimeout(resolve, 50)); // undici puts the connection back a tick later
    await (await fetch(url)).text();
    expect(ports).toHaveLength(2);
    expect(ports[1]).toBe(ports[0]);
  });

  it('leaves other origins to the real fetch, and refuses an origin whose server was removed', async () => {
    const { url } = serve((_req, res) => res.end('in-process'));
    opened.at(-1)!.route.remove();
    await expect(fetch(url)).rejects.toThrow();
    await expect(fetch('http://127.0.0.1:9/')).rejects.toThrow(); // a real connection, refused
  });
});
