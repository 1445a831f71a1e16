/** A small HTTP server on a loopback address for the tests and benchmarks of outbound HTTP; it counts connections. */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListener {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Headers of the requests received so far. */
  received: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * Routes: /json, /text, /bytes, /files/<name>?disposition=<Content-Disposition> (bytes), /echo (method, headers, body as JSON), /status/<n>, /slow?ms=, /big?bytes=,
 * /redirect?to=<url>&status=<n>, /loop (redirects to itself).
 */
export async function startLoopbackListener(host = '127.0.0.1'): Promise<LoopbackListener> {
  let connections = 0;
  const received: IncomingHttpHeaders[] = [];
  const server: Server = createServer(async (req, res) => {
    received.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://listener');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = url.pathname;
    if (path === '/json') return res.setHeader('content-type', 'application/json').end('{"hello":"world"}');
    if (path === '/text') return res.setHeader('content-type', 'text/plain; charset=utf-8').end('plain text');
    if (path === '/bytes') {
      return res.setHeader('content-type', 'application/octet-stream').end(Buffer.from([0, 1, 2, 255]));
    }
    if (path.startsWith('/files/')) {
      const disposition = url.searchParams.get('disposition');
      if (disposition) res.setHeader('content-disposition', disposition);
      return res.setHeader('content-type', 'application/pdf').end(Buffer.from('%PDF-1.4\n'));
    }
    if (path === '/echo') {
      const echo = { method: req.method, headers: req.headers, body };
      return res.setHeader('content-type', 'application/json').end(JSON.stringify(echo));
    }
    if (path.startsWith('/status/')) {
      return res.writeHead(Number(path.slice(8)), { 'content-type': 'text/plain' }).end('status body');
    }
    if (path === '/slow') {
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get('ms') ?? 2000)));
      return res.end('late');
    }
    if (path === '/big') {
      return res
        .setHeader('content-type', 'text/plain')
        .end('x'.repeat(Number(url.searchParams.get('bytes'))));
    }
    if (path === '/redirect') {
      const status = Number(url.searchParams.get('status') ?? 302);
      return res.writeHead(status, { location: url.searchParams.get('to') ?? '/' }).end();
    }
    if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    return res.writeHead(404).end();
  });
  server.on('connection', () => connections++);
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    port,
    connections: () => connections,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
